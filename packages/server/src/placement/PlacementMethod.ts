import type { ConversionResult, DoorQuery } from '@arsession/convert';
import type { FormField } from '../form/FormField.js';
import type { Form, UploadedFile } from '../form/readMultipartForm.js';
import type { Placement } from '../records/Placement.js';

/** The models of a request once converted; placement is stated in the first one's delivered frame. */
export interface ConvertedModels {
  primary: ConversionResult;
  all: readonly ConversionResult[];
}

/** A file a placement keeps with the session (the reference image). */
export interface PlacementFile {
  upload: UploadedFile;
  /** Its name under the session's files. */
  name: string;
  contentType: string;
}

/**
 * One placement rule, behind one endpoint. `read` checks every field before any model is
 * converted (a bad request costs no conversion); `place` states the result in the delivered frame.
 */
export interface PlacementMethod<Input, Result extends Placement = Placement> {
  /** Path under `/api/vision/v1/session/`. */
  path: string;
  /** `placement.method` in the detail record. */
  method: string;
  /** by_plane alone may be called without `X-API-Key`. */
  requiresKey: boolean;
  /**
   * Its fields besides the models and the conversion block (`SESSION_FORM`), declared once: what
   * the endpoint accepts, what it requires and what the document says of each.
   */
  form: readonly FormField[];
  /** The placement's fields read and judged; numbers beyond `maxCoordinate` (m) refused by name. */
  read(form: Form, maxCoordinate: number): Input;
  /** by_scan mode 1: the door to find while the model is read. */
  doorQuery?(input: Input): DoorQuery | undefined;
  files?(input: Input): PlacementFile[];
  place(input: Input, models: ConvertedModels): Result;
}
