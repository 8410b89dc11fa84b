import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import {
  AR_BUDGET_DEFAULTS,
  partScene,
  readIfc,
  readUsdz,
  type SceneData,
  type ScenePart,
  splitIntoParts,
  unpackParts,
} from '@arsession/convert';
import { partsLevel, StreamReduction } from '@arsession/convert/budget';
import { renderTogether, type RenderedModel, type RenderModelOptions } from './renderModel.js';

/**
 * One part of a model delivered over the budget (entry `index` of its parts archive at
 * `partsPath`) beside the same elements of the model as read,
 * from the render section's fixed views framed on them: what a device that loads the part
 * where the user stands shows, against the full model there. The elements as read are the ones
 * the conversion put in that part (its split made again as `runConversion` makes it, and matched
 * by GlobalId), not the triangles inside its bounds: a storey's bounds take in the lower half of
 * the walls above it, which drawn cut off look like the shattered walls this picture looks for.
 * PNGs named `<model>-part<index>-<view>.png`.
 *
 * @example
 * ```ts
 * await renderPart('/tmp/restaurant-merged8.ifc', '/tmp/parts.zip', 0);
 * ```
 */
export async function renderPart(
  path: string,
  partsPath: string,
  index: number,
  options: Partial<RenderModelOptions> = {},
): Promise<RenderedModel> {
  const part = unpackParts(new Uint8Array(readFileSync(partsPath)))[index];
  if (!part) throw new Error(`${partsPath} has no part ${index}`);
  const bytes = new Uint8Array(readFileSync(path));
  const { elements, split } = await elementsOfPart(bytes, index);
  const stem = basename(path, extname(path));
  const asRead = async () => {
    const full = await readIfc(bytes);
    const nodes = full.nodes.flatMap((node, i) => (node.meshes.length > 0 && elements.has(elementOf(full, i)) ? [i] : []));
    return partScene(full, { ...split, nodes });
  };
  return renderTogether(`${stem}-part${index}.ifc`, [asRead], [() => readUsdz(part.data)], {
    ...options,
    deliveredInFullFrame: true,
  });
}

/**
 * The GlobalIds of the elements in part `index` of the model, as a conversion on the default
 * budget splits it: read as `runConversion` reads a model it writes parts of (the parts' richer
 * level beside the reduced one), then `splitIntoParts` over that level.
 */
async function elementsOfPart(bytes: Uint8Array, index: number): Promise<{ elements: Set<string>; split: ScenePart }> {
  const triangles = AR_BUDGET_DEFAULTS.triangles;
  const scene = await readIfc(bytes, {
    reduction: new StreamReduction({ triangles, startTriangles: triangles }),
    partsReduction: new StreamReduction(partsLevel(triangles)),
  });
  const source = scene.partsSource ?? scene;
  const split = splitIntoParts(source, scene.levels, { triangles });
  const part = split[index];
  if (!part) throw new Error(`the model splits into ${split.length} parts, not ${index + 1}`);
  return { elements: new Set(part.nodes.map((n) => elementOf(source, n))), split: part };
}

/** The GlobalId of the element node `i` draws for: its own, or its nearest ancestor's (a placement of shared geometry). */
function elementOf(scene: Pick<SceneData, 'nodes'>, i: number): string {
  for (let n = i; n >= 0; n = scene.nodes[n]!.parent) {
    const id = scene.nodes[n]!.metadata.globalId;
    if (id) return id;
  }
  return `#${i}`;
}
