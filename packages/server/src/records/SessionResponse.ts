import { type Static, Type } from '@sinclair/typebox';

/**
 * The body of every 201 (interface-spec.md, SessionResponse): the deep link the app opens, when
 * the session expires, and its one-time code. The one declaration of its type and its OpenAPI
 * schema.
 */
export const SessionResponse = Type.Object(
  {
    deeplink: Type.String({ format: 'uri', examples: ['arsession://session/3q2-7wEjS0mZ1T2V0X9dQg'] }),
    expires_at: Type.String({ format: 'date-time', pattern: 'Z$' }),
    onetime_code: Type.String({
      pattern: '^[0-9]{12}$',
      description:
        'twelve digits (leading zeros kept), claimable once while it lives (ARSESSION_CODE_TTL_S, ' +
        'an hour by default, at most the session): POST /api/vision/v1/session/claim/',
    }),
  },
  {
    additionalProperties: false,
    description: 'The body of every 201: the deep link the app opens, when the session expires, and its one-time code.',
  },
);
/** The body of every 201 (see the schema of the same name). */
export type SessionResponse = Static<typeof SessionResponse>;

/** The answer to a claim: the session a one-time code belonged to (OpenAPI `ClaimResponse`). */
export const ClaimResponse = Type.Object(
  { session_id: Type.String(), deeplink: Type.String({ format: 'uri' }), expires_at: Type.String({ format: 'date-time' }) },
  { additionalProperties: false, description: 'The session a one-time code belonged to.' },
);
/** The answer to a claim (see the schema of the same name). */
export type ClaimResponse = Static<typeof ClaimResponse>;
