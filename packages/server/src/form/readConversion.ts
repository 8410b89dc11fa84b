import { ApiError, badField } from '../errors/ApiError.js';
import type { Form } from './readMultipartForm.js';

/** The conversion block; only `auto` is served (spec: `custom` is in development, refused with 400). */
export interface ConversionSettings {
  mode: 'auto';
}

const MODES = ['auto', 'custom'] as const;

/**
 * Reads the `conversion` block, sent either as dotted fields (`conversion.mode`) or as one JSON
 * field `conversion`, never both. Absent means `auto`. Any `custom` content is a 400 naming
 * `conversion.custom`, as the spec requires.
 */
export function readConversion(form: Form): ConversionSettings {
  const dotted = [...form.fields.keys()].filter((k) => k.startsWith('conversion.'));
  const whole = form.fields.get('conversion');
  if (whole !== undefined && dotted.length > 0)
    throw badField(
      dotted[0]!,
      'send the conversion block either as one JSON field `conversion` or as dotted fields, not both',
      'mutually_exclusive',
    );
  let block: Record<string, unknown> = {};
  if (whole !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(whole);
    } catch {
      throw badField('conversion', 'must be a JSON object, e.g. {"mode": "auto"}', 'malformed_json');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw badField('conversion', 'must be a JSON object, e.g. {"mode": "auto"}', 'wrong_type');
    block = parsed as Record<string, unknown>;
  } else {
    for (const k of dotted) {
      const key = k.slice('conversion.'.length);
      if (key === 'custom' || key.startsWith('custom.')) block.custom = form.fields.get(k);
      else block[key] = form.fields.get(k);
    }
  }
  if ('custom' in block || block.mode === 'custom') {
    // The field sent is the one named: conversion.custom when a custom block came, else the mode asking for it.
    const field = 'custom' in block ? 'conversion.custom' : 'conversion.mode';
    throw new ApiError(
      400,
      'conversion_custom_unsupported',
      `${field === 'conversion.mode' ? 'conversion.mode=custom' : 'conversion.custom (including decimation)'} ` +
        `is not supported yet; omit the conversion block or send conversion.mode=auto`,
      [{ field, message: 'custom conversion is in development and not supported; use mode auto' }],
    );
  }
  for (const key of Object.keys(block)) {
    if (key !== 'mode') throw badField(`conversion.${key}`, 'is not a field of the conversion block (only mode)', 'unknown_field');
  }
  const mode = block.mode ?? 'auto';
  if (typeof mode !== 'string' || !(MODES as readonly string[]).includes(mode)) {
    throw badField('conversion.mode', `must be auto (custom is not supported yet); got ${JSON.stringify(mode)}`, 'unknown_value');
  }
  return { mode: 'auto' };
}
