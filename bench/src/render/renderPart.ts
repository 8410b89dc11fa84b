import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { readIfc, readUsdz, unpackParts } from '@arsession/convert';
import type { Bounds } from '@arsession/geometry';
import { renderTogether, type RenderedModel, type RenderModelOptions } from './renderModel.js';

/**
 * One part of a model delivered over the budget (entry `index` of its parts archive at
 * `partsPath`, with the bounds its record states) beside the same region of the model as read,
 * from the render section's fixed views framed on that region: what a device that loads the part
 * where the user stands shows, against the full model there. PNGs named `<model>-part<index>-<view>.png`.
 *
 * @example
 * ```ts
 * await renderPart('/tmp/restaurant-merged8.ifc', '/tmp/parts.zip', 0, parts[0].bounds);
 * ```
 */
export async function renderPart(
  path: string,
  partsPath: string,
  index: number,
  bounds: Bounds,
  options: Partial<RenderModelOptions> = {},
): Promise<RenderedModel> {
  const part = unpackParts(new Uint8Array(readFileSync(partsPath)))[index];
  if (!part) throw new Error(`${partsPath} has no part ${index}`);
  const stem = basename(path, extname(path));
  return renderTogether(`${stem}-part${index}.ifc`, [() => readIfc(new Uint8Array(readFileSync(path)))], [() => readUsdz(part.data)], {
    ...options,
    crop: bounds,
    deliveredInFullFrame: true,
  });
}
