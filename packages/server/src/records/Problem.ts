import { type Static, Type } from '@sinclair/typebox';

/**
 * An RFC 9457 problem document with the fields at fault, as every error answers: the one
 * declaration of its type and of the OpenAPI schema `Problem`.
 */
export const Problem = Type.Object(
  {
    type: Type.String({ format: 'uri', description: 'urn:arsession:problem:<code>' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Array(
      Type.Object({ field: Type.String(), message: Type.String(), code: Type.Optional(Type.String()) }, { additionalProperties: false }),
      { description: 'the fields at fault' },
    ),
    request_id: Type.Optional(Type.String({ description: 'also the X-Request-Id response header' })),
    reason: Type.Optional(Type.String({ description: 'door_not_found: why no door was found' })),
    file: Type.Optional(Type.String({ description: 'the uploaded file at fault' })),
  },
  { additionalProperties: false, description: 'RFC 9457 problem details with the fields at fault.' },
);
/** A problem document (see the schema of the same name). */
export type Problem = Static<typeof Problem>;
