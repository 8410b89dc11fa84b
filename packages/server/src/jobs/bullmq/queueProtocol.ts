import type { ArBudget, ConversionResult, DoorQuery, SerializedConvertError } from '@arsession/convert';

/** What a job carries: where the model is in the object store, where its USDZ goes, what to do. */
export interface QueuedConversion {
  modelKey: string;
  usdzKey: string;
  glbKey: string;
  fileName: string;
  field: string;
  detectDoor?: DoorQuery;
  timeoutMs: number;
  /** The API node's AR budget (the worker holds to the one the session was asked under); `false`: none. */
  budget: ArBudget | false;
  /** Bytes of geometry the model may need, from the API node's conversion memory bound. */
  maxGeometryBytes: number;
}

/** What a job returns: the conversion (its USDZ put at `usdzKey`, its GLB at `glbKey`), or why the model was refused. */
export type QueuedConversionResult =
  | { ok: true; result: Omit<ConversionResult, 'usdz' | 'glb'> }
  | { ok: false; error: SerializedConvertError };
