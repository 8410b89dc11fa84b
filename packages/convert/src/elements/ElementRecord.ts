import type { ElementRecord } from '../report/wireSchemas.js';

export type { ElementRecord, PropertySets, PropertyValue } from '../report/wireSchemas.js';

/** Every element's record, by its id: the file a session serves them from. */
export interface ElementRecords {
  /** The IFC schema the file is written in; `glTF 2.0` for a GLB, `USD` for a USDZ. */
  schema: string;
  elements: Record<string, ElementRecord>;
}
