import type { SdfLayer, SdfSpec, SdfValue } from '../sdf/SdfLayer.js';

/** A layer with the time mapping of its place in a stack: layer time = (stack time − offset) / scale. */
export interface StackLayer {
  layer: SdfLayer;
  offset: number;
  scale: number;
}

/**
 * A root layer and its sublayers, strongest first, as USD orders them: each layer before its
 * sublayers, sublayers in the order listed, depth first.
 */
export class LayerStack {
  constructor(readonly layers: readonly StackLayer[]) {}

  /** The root layer (whose metadata — defaultPrim, upAxis — speak for the stack). */
  get root(): SdfLayer {
    return this.layers[0]!.layer;
  }

  /** Every spec at `path`, strongest first, with its layer. */
  *specsAt(path: string): Generator<{ spec: SdfSpec; at: StackLayer }> {
    for (const at of this.layers) {
      const spec = at.layer.specs.get(path);
      if (spec) yield { spec, at };
    }
  }

  /** The strongest opinion of `field` on the spec at `path`. */
  field(path: string, field: string): SdfValue | undefined {
    for (const { spec } of this.specsAt(path)) {
      const v = spec.fields.get(field);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /** Whether any layer has a spec at `path`. */
  has(path: string): boolean {
    return this.layers.some((l) => l.layer.specs.has(path));
  }

  /** A stable name for the stack (its root layer), for cycle checks. */
  get id(): string {
    return this.root.identifier;
  }
}

/**
 * The layer stack rooted at `root`: its `subLayers` (with their `subLayerOffsets`) opened through
 * `open` and flattened depth first. A sublayer that is already in the stack (a cycle) is skipped.
 *
 * @example
 * ```ts
 * const stack = buildLayerStack(rootLayer, (asset, anchor) => layers.open(asset, anchor));
 * ```
 */
export function buildLayerStack(root: SdfLayer, open: (assetPath: string, anchor: string) => SdfLayer): LayerStack {
  const out: StackLayer[] = [];
  const seen = new Set<string>();
  const visit = (layer: SdfLayer, offset: number, scale: number, depth: number) => {
    if (seen.has(layer.identifier) || depth > 32) return;
    seen.add(layer.identifier);
    out.push({ layer, offset, scale });
    const meta = layer.specs.get('/')?.fields;
    const subLayers = meta?.get('subLayers');
    const offsets = meta?.get('subLayerOffsets');
    if (subLayers?.kind !== 'stringList') return;
    subLayers.value.forEach((asset, i) => {
      const own = offsets?.kind === 'layerOffsets' ? offsets.value[i] : undefined;
      const s = own?.scale ?? 1,
        o = own?.offset ?? 0;
      visit(open(asset, layer.identifier), offset + scale * o, scale * s, depth + 1);
    });
  };
  visit(root, 0, 1, 0);
  return new LayerStack(out);
}
