import type { SceneMaterial } from '../scene/SceneData.js';

/**
 * See-through variants of a scene's materials, made as they are asked for: what a frame's sheet
 * (or box) is drawn in when it stands across the frame's opening. Drawn in the frame's own material, the
 * sheet would close a window with a panel of its wood or a doorway with its paint; in its colour
 * but see-through, it still shows where the opening is and lets the room behind be seen, as the
 * glass it stands for would.
 *
 * @example
 * ```ts
 * const seeThrough = new SeeThroughMaterials(scene.materials, 0.3);
 * const sheet = { ...sheetProxy(frame), material: seeThrough.of(frame.material) };
 * const materials = seeThrough.materials; // scene.materials, then the variants made
 * ```
 */
export class SeeThroughMaterials {
  private readonly made = new Map<number, number>();
  private readonly all: SceneMaterial[];

  /** `opacity`: the most opaque a variant is (a material already less opaque keeps its own). */
  constructor(
    base: readonly SceneMaterial[],
    private readonly opacity: number,
  ) {
    this.all = [...base];
  }

  /** The index of material `index`'s see-through variant; `index` itself when it is see-through already or not in the list. */
  of(index: number): number {
    const material = this.all[index];
    if (!material || material.opacity <= this.opacity) return index;
    let variant = this.made.get(index);
    if (variant === undefined) {
      const { alphaCutoff: _cut, ...rest } = material;
      // Blended, not cut: a cutoff would draw the sheet either whole or not at all.
      variant = this.all.push({ ...rest, name: `${material.name} (see-through)`, opacity: this.opacity }) - 1;
      this.made.set(index, variant);
    }
    return variant;
  }

  /** The base materials, then every variant made, in the order they were made. */
  get materials(): SceneMaterial[] {
    return this.all;
  }
}
