/**
 * @packageDocumentation
 * The geometry package's error classes alone (`@arsession/geometry/errors`): what a caller that
 * only revives errors (the conversion pool's host thread) needs, without loading the geometry.
 */
export { GeometryValidationError } from './GeometryValidationError.js';
export { DoorNotFoundError, type DoorNotFoundReason } from '../detection/DoorNotFoundError.js';
