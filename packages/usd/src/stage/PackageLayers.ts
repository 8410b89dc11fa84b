import { UsdError, UsdUnreadableError, UsdPackageError } from '../errors/UsdError.js';
import { CHECK_USDZ_PACKAGE_DEFAULTS, checkUsdzPackage } from '../package/checkUsdzPackage.js';
import { decodeBudgetFor, type DecodeBudget } from '../crate/DecodeBudget.js';
import { readCrate } from '../crate/readCrate.js';
import type { SdfLayer, SdfValue } from '../sdf/SdfLayer.js';
import { parseUsda } from '../usda/parseUsda.js';
import type { ZipEntry } from '../zip/zipStored.js';

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
  /** Packages inside the package, opened: their entries' names, root first. */
  private readonly nested = new Map<string, string[]>();
  /** What packages inside the package may still unpack to: the whole package holds one limit. */
  private unpackedLeft: number;
  /** What every crate layer of the package, nested ones included, may decode to together. */
  private readonly decoding: DecodeBudget;

  /**
   * `leftOut`: names of entries the package holds but that were never inflated (kinds no one here
   * loads, see `checkUsdzPackage`): they resolve, with no bytes, so a layer that uses one as a
   * layer is refused naming what it is, not as missing.
   */
  constructor(
    entries: readonly ZipEntry[],
    private readonly named: { label: string; fileName?: string; field?: string; maxUnpackedBytes?: number },
    leftOut: readonly string[] = [],
  ) {
    this.byName = new Map([
      ...leftOut.map((name): [string, ZipEntry] => [name, { name, data: new Uint8Array(0) }]),
      ...entries.map((e): [string, ZipEntry] => [e.name, e]),
    ]);
    const bytes = entries.reduce((n, e) => n + e.data.length, 0);
    this.unpackedLeft = (named.maxUnpackedBytes ?? CHECK_USDZ_PACKAGE_DEFAULTS.maxUnpackedBytes) - bytes;
    this.decoding = decodeBudgetFor(bytes);
  }

  /** The package entry an asset path names, seen from layer `anchor`; refused when outside the package. */
  resolve(assetPath: string, anchor: string): ZipEntry {
    const { label } = this.named;
    const path = assetPath.trim();
    // A URL or a drive, not a name with a colon in it (Apple's RoomPlan names files by their time).
    if (
      /^[a-z][a-z0-9+.-]*:\/\//i.test(path) ||
      /^[a-z]:/i.test(path) ||
      /^(file|data|https?|ftp):/i.test(path) ||
      path.startsWith('/') ||
      path.includes('\\')
    ) {
      throw this.packageError('unencapsulated_reference', `${label}: the layer ${anchor} refers to "${assetPath}", outside the package`);
    }
    if (/\.abc$/i.test(path))
      throw this.packageError(
        'unsupported_reference',
        `${label}: the layer ${anchor} refers to Alembic content ("${assetPath}"), which ARKit cannot load`,
      );
    // A path into a package the package holds: `parts.usdz[layer.usda]`.
    const explicit = /^(.*\.usdz)\[(.+)\]$/i.exec(path);
    if (explicit) return this.nestedEntry(this.resolve(explicit[1]!, anchor), explicit[2]!, assetPath, anchor);
    // Seen from a layer inside a nested package, a relative path stays inside that package, as in USD.
    const nested = /^(.*\.usdz)\[(.*)\]$/i.exec(anchor);
    const inner = nested ? nested[2]! : anchor;
    const folder = inner.includes('/') ? inner.slice(0, inner.lastIndexOf('/') + 1) : '';
    for (const candidate of [normalise(folder + path), normalise(path)]) {
      if (candidate === undefined)
        throw this.packageError('unencapsulated_reference', `${label}: the layer ${anchor} refers to "${assetPath}", outside the package`);
      const entry = this.byName.get(nested ? `${nested[1]}[${candidate}]` : candidate);
      if (entry) return entry;
    }
    throw this.packageError(
      'unencapsulated_reference',
      `${label}: the layer ${anchor} refers to "${assetPath}", which is not in the package`,
    );
  }

  /** The layer an asset path names (`''` anchor: a package path as is); a nested package's root layer when it names one. */
  open(assetPath: string, anchor: string): SdfLayer {
    let entry = this.resolve(assetPath, anchor);
    // A package used as a layer stands for its root layer, its first entry (Reality Composer Pro writes these).
    if (/\.usdz\]?$/i.test(entry.name)) entry = this.nestedEntry(entry, this.expand(entry)[0]!, assetPath, anchor);
    if (/\.usdz\]$/i.test(entry.name))
      throw this.packageError(
        'unsupported_reference',
        `${this.named.label}: ${entry.name} is a package inside a package inside the package; one level of nesting is read`,
      );
    let layer = this.opened.get(entry.name);
    if (!layer) {
      layer = readLayer(entry, this.named.label, this.named, this.decoding);
      this.opened.set(entry.name, layer);
    }
    return layer;
  }

  /** The entry `inner` of the nested package `pkg`, named `pkg[inner]` as USD names it. */
  private nestedEntry(pkg: ZipEntry, inner: string, assetPath: string, anchor: string): ZipEntry {
    this.expand(pkg);
    const entry = this.byName.get(`${pkg.name}[${normalise(inner) ?? inner}]`);
    if (!entry)
      throw this.packageError(
        'unencapsulated_reference',
        `${this.named.label}: the layer ${anchor} refers to "${assetPath}", which is not in the package`,
      );
    return entry;
  }

  /** A package inside the package, checked as any (bombs, escapes) and its entries named `pkg[entry]`; their names, root first. */
  private expand(pkg: ZipEntry): string[] {
    const known = this.nested.get(pkg.name);
    if (known) return known;
    if (pkg.name.includes('['))
      throw this.packageError(
        'unsupported_reference',
        `${this.named.label}: ${pkg.name} is a package inside a package inside the package; one level of nesting is read`,
      );
    const { entries, leftOut } = checkUsdzPackage(pkg.data, {
      fileName: `${this.named.label}: ${pkg.name}`,
      maxUnpackedBytes: Math.max(0, this.unpackedLeft),
    });
    this.unpackedLeft -= entries.reduce((n, e) => n + e.data.length, 0);
    for (const name of leftOut) this.byName.set(`${pkg.name}[${name}]`, { name: `${pkg.name}[${name}]`, data: new Uint8Array(0) });
    for (const e of entries) this.byName.set(`${pkg.name}[${e.name}]`, { name: `${pkg.name}[${e.name}]`, data: e.data });
    const names = entries.map((e) => e.name);
    this.nested.set(pkg.name, names);
    return names;
  }

  /** Package names of the layers opened so far (the layers the stage uses, once it is composed). */
  get layerNames(): string[] {
    return [...this.opened.keys()];
  }

  /**
   * The asset paths the opened layers hold (in any spec, variant or time sample) that name nothing
   * in the package: a texture or a shader's source left behind, a path outside the package. OpenUSD
   * opens such a stage and draws what it has; so do we, and the delivered package, which holds only
   * what was read, is self-contained as ARKit requires. Layers that fail to resolve were refused
   * when the stage was composed.
   */
  danglingAssets(): Array<{ asset: string; layer: string; why: string }> {
    const dangling: Array<{ asset: string; layer: string; why: string }> = [];
    const seen = new Set<string>();
    for (const layer of this.opened.values()) {
      for (const spec of layer.specs.values()) {
        for (const value of spec.fields.values()) {
          for (const asset of assetPaths(value)) {
            // The same path may name different entries from layers in different folders.
            const key = `${layer.identifier}\u0000${asset}`;
            if (!asset || seen.has(key)) continue;
            seen.add(key);
            try {
              this.resolve(asset, layer.identifier);
            } catch (err) {
              // A broken package inside the package, named only by an asset path, is as missing as any.
              if (!(err instanceof UsdError)) throw err;
              dangling.push({ asset, layer: layer.identifier, why: err.message });
            }
          }
        }
      }
    }
    return dangling;
  }

  private packageError(rule: string, message: string): UsdPackageError {
    return new UsdPackageError(rule, message, withoutLabel(this.named));
  }
}

/** The asset paths in a value (one, an array of them, or inside time samples and dictionaries). */
function assetPaths(value: SdfValue): string[] {
  switch (value.kind) {
    case 'asset':
      return [value.value];
    case 'stringArray':
      return value.type === 'asset[]' ? value.value : [];
    case 'timeSamples':
    case 'dictionary':
      return [...value.value.values()].flatMap(assetPaths);
    default:
      return [];
  }
}

/** A layer's bytes read by their content: a crate (`PXR-USDC`) or USDA text. */
function readLayer(entry: ZipEntry, label: string, named: { fileName?: string; field?: string }, decoding: DecodeBudget): SdfLayer {
  const head = String.fromCharCode(...entry.data.subarray(0, 8));
  if (head === CRATE_MAGIC) return readCrate(entry.data, entry.name, { allowance: decoding });
  if (head.startsWith('#usda')) return parseUsda(new TextDecoder().decode(entry.data), entry.name);
  if (/\.drc\]?$/i.test(entry.name)) {
    throw new UsdPackageError(
      'unsupported_reference',
      `${label}: "${entry.name}" is Draco-compressed geometry, a layer only ` +
        `OpenUSD's usdDraco plugin reads; export the model without Draco compression`,
      withoutLabel(named),
    );
  }
  if (!/\.(usd|usda|usdc)$/i.test(entry.name)) {
    throw new UsdPackageError(
      'unsupported_reference',
      `${label}: "${entry.name}" is used as a layer but is not one (a ${entry.name.split('.').pop()} file)`,
      withoutLabel(named),
    );
  }
  throw new UsdUnreadableError(`${label}: layer ${entry.name} is neither a USD crate nor USDA text`, withoutLabel(named));
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
