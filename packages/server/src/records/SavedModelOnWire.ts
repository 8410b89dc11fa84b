import { componentRef, count, sha256Hex } from '@arsession/convert/schemas';
import { type Static, Type } from '@sinclair/typebox';
import { orNull, stringEnum } from './wireSchemaHelpers.js';

/** One saved model on the wire: the one declaration of its type and of the OpenAPI schema `SavedModel`. */
export const SavedModelOnWire = Type.Object(
  {
    id: Type.String({ description: 'its id, for DELETE /api/vision/v1/models/{model_id}' }),
    session_id: Type.String({ description: 'the session it was first sent with (which may have expired)' }),
    source_name: Type.String({ description: 'its file name as uploaded' }),
    format: stringEnum(['ifc', 'ifczip', 'glb', 'usdz'], 'the format it was read as'),
    bytes: count('its size as uploaded'),
    sha256: Type.String({ ...sha256Hex(), description: 'SHA-256 of its bytes, hex' }),
    created_at: Type.String({ format: 'date-time', description: 'when it was saved' }),
  },
  {
    additionalProperties: false,
    description: "A model saved to the key's account: GET …/models/{id}/file gives its bytes, DELETE …/models/{id} forgets it.",
  },
);
/** One saved model on the wire (see the schema `SavedModel`). */
export type SavedModelOnWire = Static<typeof SavedModelOnWire>;

/** `GET /api/vision/v1/models/`: a page of an account's saved models (OpenAPI `SavedModels`). */
export const SavedModelsOnWire = Type.Object(
  {
    account: Type.String({ description: "the key's account" }),
    models: Type.Array(componentRef('SavedModel', SavedModelOnWire), {
      description: 'newest first; a model is kept once per content (the same file sent again is not stored twice)',
    }),
    next_cursor: orNull(Type.String(), 'pass as cursor for the next page; null on the last page'),
  },
  { additionalProperties: false },
);
/** A page of saved models on the wire (see the schema `SavedModels`). */
export type SavedModelsOnWire = Static<typeof SavedModelsOnWire>;
