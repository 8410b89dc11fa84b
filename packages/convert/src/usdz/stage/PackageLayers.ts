import { ModelUnreadableError, UsdzPackageError } from '../../errors/ConvertError.js';
import { readCrate } from '../crate/readCrate.js';
import type { SdfLayer, SdfValue } from '../sdf/SdfLayer.js';
import { parseUsda } from '../usda/parseUsda.js';
import type { ZipEntry } from '../zipStored.js';

const CRATE_MAGIC = 'PXR-USDC';

/**
 * The layers and assets of one USDZ package, opened on demand by asset path: paths resolve
 * against the folder of the layer that names them (then the package root, as USD's search
 * paths do), must stay inside the package, and are read as a crate or as text by their content.
 * A layer is read once however often it is referenced.
 *
 * @example
 * ```ts
 * const layers = new PackageLayers(entries, { label: 'chair.usdz' });
 * const root = layers.open(entries[0].name, '');
 * ```
 */
export class PackageLayers {
  private readonly byName: Map<string, ZipEntry>;
  private readonly opened = new Map<string, SdfLayer>();

  constructor(entries: readonly ZipEntry[], private readonly named: { label: string; fileName?: string; field?: string }) {
    this.byName = new Map(entries.map((e) => [e.name, e]));
  }

  /** The package entry an asset path names, seen from layer `anchor`; refused when outside the package. */
  resolve(assetPath: string, anchor: string): ZipEntry {
    const { label } = this.named;
    const path = assetPath.trim();
    if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('/') || path.includes('\\')) {
      throw this.packageError('unencapsulated_reference', `${label}: the layer ${anchor} refers to "${assetPath}", outside the package`);
    }
    if (/\.abc$/i.test(path)) throw this.packageError('unsupported_reference', `${label}: the layer ${anchor} refers to Alembic content ("${assetPath}"), which ARKit cannot load`);
    if (/\[.*\]$/.test(path)) throw this.packageError('unsupported_reference', `${label}: the layer ${anchor} refers into a nested package ("${assetPath}"), which is not supported`);
    const folder = anchor.includes('/') ? anchor.slice(0, anchor.lastIndexOf('/') + 1) : '';
    for (const candidate of [normalise(folder + path), normalise(path)]) {
      if (candidate === undefined) throw this.packageError('unencapsulated_reference', `${label}: the layer ${anchor} refers to "${assetPath}", outside the package`);
      const entry = this.byName.get(candidate);
      if (entry) return entry;
    }
    throw this.packageError('unencapsulated_reference', `${label}: the layer ${anchor} refers to "${assetPath}", which is not in the package`);
  }

  /** The layer an asset path names (`''` anchor: a package path as is). */
  open(assetPath: string, anchor: string): SdfLayer {
    const entry = this.resolve(assetPath, anchor);
    let layer = this.opened.get(entry.name);
    if (!layer) {
      layer = readLayer(entry, this.named.label, this.named);
      this.opened.set(entry.name, layer);
    }
    return layer;
  }

  /** Package names of the layers opened so far (the layers the stage uses, once it is composed). */
  get layerNames(): string[] {
    return [...this.opened.keys()];
  }

  /**
   * Resolves every asset path the opened layers hold (in any spec, variant or time sample), so a
   * package that refers to anything outside itself is refused even where nothing reads it yet:
   * the package must be self-contained, as ARKit requires.
   */
  checkEncapsulation(): void {
    for (const layer of this.opened.values()) {
      for (const spec of layer.specs.values()) {
        for (const value of spec.fields.values()) for (const asset of assetPaths(value)) if (asset) this.resolve(asset, layer.identifier);
      }
    }
  }

  private packageError(rule: string, message: string): UsdzPackageError {
    return new UsdzPackageError(rule, message, withoutLabel(this.named));
  }
}

/** The asset paths in a value (one, an array of them, or inside time samples and dictionaries). */
function assetPaths(value: SdfValue): string[] {
  switch (value.kind) {
    case 'asset': return [value.value];
    case 'stringArray': return value.type === 'asset[]' ? value.value : [];
    case 'timeSamples': case 'dictionary': return [...value.value.values()].flatMap(assetPaths);
    default: return [];
  }
}

/** A layer's bytes read by their content: a crate (`PXR-USDC`) or USDA text. */
function readLayer(entry: ZipEntry, label: string, named: { fileName?: string; field?: string }): SdfLayer {
  const head = String.fromCharCode(...entry.data.subarray(0, 8));
  if (head === CRATE_MAGIC) return readCrate(entry.data, entry.name);
  if (head.startsWith('#usda')) return parseUsda(new TextDecoder().decode(entry.data), entry.name);
  if (!/\.(usd|usda|usdc)$/i.test(entry.name)) {
    throw new UsdzPackageError('unsupported_reference', `${label}: "${entry.name}" is used as a layer but is not one (a ${entry.name.split('.').pop()} file)`, withoutLabel(named));
  }
  throw new ModelUnreadableError(`${label}: layer ${entry.name} is neither a USD crate nor USDA text`, withoutLabel(named));
}

function withoutLabel(named: { fileName?: string; field?: string }): { fileName?: string; field?: string } {
  return { ...(named.fileName !== undefined && { fileName: named.fileName }), ...(named.field !== undefined && { field: named.field }) };
}

/** `a/./b/../c` → `a/c`; `undefined` when `..` climbs out of the package. */
function normalise(path: string): string | undefined {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}
