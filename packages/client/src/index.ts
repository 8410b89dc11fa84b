/**
 * @arsession/client — a typed client of the arsession HTTP interface, its types generated from
 * the server's OpenAPI document.
 */
export { createArsessionClient, type ArsessionClient, type ArsessionClientOptions } from './createArsessionClient.js';
export { multipartBody, type FormValue } from './multipartBody.js';
export { sessionIdOf } from './sessionIdOf.js';
export type { components, operations, paths } from './generated/openapi.js';
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];
/** The 201 of every session endpoint. */
export type SessionResponse = Schemas['SessionResponse'];
/** The detail record of a session. */
export type SessionDetail = Schemas['SessionDetail'];
/** One model of a session, as the detail record lists it. */
export type ModelAsset = Schemas['ModelAsset'];
/** The placement of a session, by method. */
export type Placement = SessionDetail['placement'];
/** How AR Quick Look anchors a session's packages. */
export type QuickLook = Schemas['QuickLook'];
/** A refusal: RFC 9457 problem details with the fields at fault. */
export type Problem = Schemas['Problem'];
