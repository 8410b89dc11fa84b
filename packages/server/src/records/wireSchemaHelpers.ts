import { type Static, type TSchema, Type } from '@sinclair/typebox';

// The shapes the server's wire records are written with, as the OpenAPI document states them
// (`enum` and `oneOf`, not TypeBox's unions of constants and `anyOf`), typed as their values.

/** A closed record: a field the server sends and the schema does not name fails the tests. */
export const closed = { additionalProperties: false } as const;

/** `size` numbers. */
export const numbers = (size: number, description: string) => Type.Array(Type.Number(), { minItems: size, maxItems: size, description });

/** `[x, y, z]`. */
export const vec3 = (description: string) => numbers(3, description);

/** A URL. */
export const url = (description?: string) => Type.String({ format: 'uri', ...(description !== undefined && { description }) });

/** One of some strings (`enum`). */
export const stringEnum = <const T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description !== undefined && { description }) });

/** Exactly one of some records (`oneOf`: each is closed, so one matches). */
export const oneOf = <const T extends readonly TSchema[]>(schemas: T, description: string) =>
  Type.Unsafe<Static<T[number]>>({ oneOf: [...schemas], description });

/** `schema` or `null` (`oneOf`), described as a whole when `description` is given. */
export const orNull = <T extends TSchema>(schema: T, description?: string) =>
  Type.Unsafe<Static<T> | null>({ oneOf: [schema, { type: 'null' }], ...(description !== undefined && { description }) });
