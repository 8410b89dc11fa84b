import type { SceneMaterial } from '../scene/SceneData.js';

/** One merge of {@link alikeMaterials}: material `from`'s group joins material `into`'s. */
export interface MaterialMerge {
  into: number;
  from: number;
}

/**
 * The order in which a scene's plain materials are best made one: at each step the two groups
 * whose merge changes the least surface the least, their looks' distance (colour as displayed,
 * opacity, metal, roughness, glow) times the drawn area of the smaller (which takes the larger's
 * look). Identical looks come first, then a few fixings take their slab's colour, and the two
 * colours that cover most of a model stay apart longest: a balcony model asked for three prims
 * keeps three colours, not one. A merged group keeps the look of the group that covered more, so
 * less surface changes colour. Materials with a texture are never merged (their textures
 * differ); materials drawn differently (two-sided, cut-out, blended) only after all others.
 * `covered[i]` is the surface material `i` is drawn over.
 *
 * @example
 * ```ts
 * const merges = alikeMaterials(scene.materials, drawnAreaByMaterial(scene));
 * merges[0]; // → { into: 3, from: 7 }: the two nearest looks
 * ```
 */
export function alikeMaterials(materials: readonly SceneMaterial[], covered: ArrayLike<number>): MaterialMerge[] {
  const groups = materials.flatMap((m, i) => (textured(m) ? [] : [{ look: i, area: covered[i]!, alive: true }]));
  // A merge's cost: whether the two are drawn differently (those merge after all others), then
  // how unlike they look times the surface that changes look.
  const cost = (a: number, b: number) => {
    const x = materials[groups[a]!.look]!,
      y = materials[groups[b]!.look]!;
    return sameDrawing(x, y) ? lookDistance(x, y) * Math.min(groups[a]!.area, groups[b]!.area) : Number.POSITIVE_INFINITY;
  };
  const below = (a: number, b: number, c: number, d: number) => c < d || (c === d && a < b);
  // Each group's nearest other (by cost), kept up to date as groups merge; ties go to the lower index.
  const nearest = new Int32Array(groups.length).fill(-1);
  const nearestCost = new Float64Array(groups.length).fill(Number.POSITIVE_INFINITY);
  const findNearest = (a: number) => {
    nearest[a] = -1;
    nearestCost[a] = Number.POSITIVE_INFINITY;
    for (let b = 0; b < groups.length; b++) {
      if (b === a || !groups[b]!.alive) continue;
      const c = cost(a, b);
      if (nearest[a]! < 0 || c < nearestCost[a]!) [nearest[a], nearestCost[a]] = [b, c];
    }
  };
  groups.forEach((_, a) => findNearest(a));
  const merges: MaterialMerge[] = [];
  for (let left = groups.length; left > 1; left--) {
    let a = -1;
    for (let g = 0; g < groups.length; g++) if (groups[g]!.alive && (a < 0 || below(g, a, nearestCost[g]!, nearestCost[a]!))) a = g;
    const b = nearest[a]!;
    // The group that covers more keeps its look: less surface changes colour.
    const [keep, gone] = groups[a]!.area >= groups[b]!.area ? [a, b] : [b, a];
    merges.push({ into: groups[keep]!.look, from: groups[gone]!.look });
    groups[keep]!.area += groups[gone]!.area;
    groups[gone]!.alive = false;
    // The kept group grew: every cost with it may have risen, so those that had either as nearest look again.
    findNearest(keep);
    for (let g = 0; g < groups.length; g++) {
      if (!groups[g]!.alive || g === keep) continue;
      if (nearest[g] === keep || nearest[g] === gone) findNearest(g);
      else {
        const c = cost(g, keep);
        if (below(keep, nearest[g]!, c, nearestCost[g]!)) [nearest[g], nearestCost[g]] = [keep, c];
      }
    }
  }
  return merges;
}

/** For each material, the material whose look it takes after the first `count` merges of {@link alikeMaterials}. */
export function materialsAfterMerges(materialCount: number, merges: readonly MaterialMerge[], count: number): Int32Array {
  const lookOf = Int32Array.from({ length: materialCount }, (_, i) => i);
  const find = (i: number): number => (lookOf[i] === i ? i : (lookOf[i] = find(lookOf[i]!)));
  for (const { into, from } of merges.slice(0, count)) lookOf[find(from)] = find(into);
  return Int32Array.from({ length: materialCount }, (_, i) => find(i));
}

function textured(m: SceneMaterial): boolean {
  return Boolean(
    m.baseColorTexture ||
      m.normalTexture ||
      m.occlusionTexture ||
      m.emissiveTexture ||
      m.metallicTexture ||
      m.roughnessTexture ||
      m.opacityTexture,
  );
}

/** Whether two materials are drawn the same way: sides, cut-out and blending. */
function sameDrawing(a: SceneMaterial, b: SceneMaterial): boolean {
  return a.doubleSided === b.doubleSided && a.alphaCutoff === b.alphaCutoff && Boolean(a.alphaBlend) === Boolean(b.alphaBlend);
}

/** How unlike two plain looks are: colour as displayed (a gamma of 2.2), opacity, metal, roughness and glow alike. */
function lookDistance(a: SceneMaterial, b: SceneMaterial): number {
  const shown = (v: number) => Math.max(0, v) ** (1 / 2.2);
  let d = 0;
  for (let k = 0; k < 3; k++) d += (shown(a.baseColor[k]!) - shown(b.baseColor[k]!)) ** 2 + (a.emissive[k]! - b.emissive[k]!) ** 2;
  d += (a.opacity - b.opacity) ** 2 + (a.metallic - b.metallic) ** 2 + (a.roughness - b.roughness) ** 2;
  return Math.sqrt(d);
}
