import { UsdUnreadableError } from '../errors/UsdError.js';
import type { SdfLayer, SdfLayerOffset, SdfListOp, SdfReference, SdfSpec, SdfSpecType, SdfValue } from '../sdf/SdfLayer.js';
import { childPath, propertyPath, variantPath } from '../sdf/sdfPath.js';
import { UsdaValueReader, type UsdaNesting } from './readUsdaValues.js';
import { resolveUsdaPath } from './resolveUsdaPath.js';
import { USDA_ASSET, USDA_END, USDA_MAGIC, USDA_NAME, USDA_NUMBER, USDA_PATH, USDA_STRING, UsdaTokenizer } from './tokenizeUsda.js';
import { usdaMetadataField, type UsdaSpecKind } from './usdaMetadataFields.js';
import { usdaValueType } from './usdaValueTypes.js';

// The structure of USD's text format, after OpenUSD's `textFileFormat.yy`: the layer header and
// metadata, prims with their metadata, properties, child prims and variant sets, and what each
// statement puts in the layer — the same specs and fields OpenUSD's text reader puts in its
// SdfData (so a `.usda` and the `.usdc` of one layer read the same). Two things differ on
// purpose: relationship-target and connection specs (with the `targetChildren` and
// `connectionChildren` fields that list them) are left out, as crate files never store them
// (USD's crate reader makes them up from `targetPaths`/`connectionPaths`); and target and
// connection paths written with variant selections, or relative paths inside variants, are kept
// in the namespace (variant selections dropped) instead of being refused.

/** Prims, variant sets, dictionaries and lists nest at most this deep; deeper text is refused. */
export const USDA_MAX_NESTING = 256;

/** What a {@link UsdUnreadableError} from {@link parseUsda} should carry besides its message. */
export interface ParseUsdaOptions {
  /** The uploaded file's name. */
  fileName?: string;
  /** The request field it came in. */
  field?: string;
}

type ListOpName = 'explicit' | 'delete' | 'add' | 'prepend' | 'append' | 'reorder';

const LIST_OP_FIELD = { delete: 'deleted', add: 'added', prepend: 'prepended', append: 'appended', reorder: 'ordered' } as const;
const LIST_OP_WORDS = new Set(['delete', 'add', 'prepend', 'append', 'reorder']);
const IDENTIFIER = /^[\p{XID_Start}_][\p{XID_Continue}]*$/u;
const VARIANT_NAME = /^\.?[\p{XID_Continue}|-]*$/u;

/**
 * Parses one USDA layer (`#usda 1.0` text) into its specs. Throws {@link UsdUnreadableError}
 * naming the layer, the line and what was expected on anything malformed
 * (`shading.usda line 12: expected "=" after attribute name inputs:file, found "{"`).
 *
 * @example
 * ```ts
 * const layer = parseUsda('#usda 1.0\n(\n  defaultPrim = "World"\n)\ndef Xform "World" {}\n', 'scene.usda');
 * layer.specs.get('/World')?.fields.get('typeName'); // → { kind: 'token', value: 'Xform' }
 * layer.specs.get('/')?.fields.get('defaultPrim'); // → { kind: 'token', value: 'World' }
 * ```
 */
export function parseUsda(text: string, identifier: string, options?: ParseUsdaOptions): SdfLayer;
/**
 * Parses one USDA layer from its bytes, decoded as UTF-8.
 *
 * @example
 * ```ts
 * const layer = parseUsda(entry.data, entry.name);
 * ```
 */
export function parseUsda(bytes: Uint8Array, identifier: string, options?: ParseUsdaOptions): SdfLayer;
export function parseUsda(input: string | Uint8Array, identifier: string, options: ParseUsdaOptions = {}): SdfLayer {
  try {
    const text = typeof input === 'string' ? input : new TextDecoder().decode(input);
    return new UsdaParser(text, identifier, options).parse();
  } catch (e) {
    if (e instanceof UsdUnreadableError) throw e;
    // Anything else (an allocation failure on absurd input, say) still comes out as unreadable.
    throw new UsdUnreadableError(`${identifier}: could not be read as USDA (${e instanceof Error ? e.message : String(e)})`, {
      cause: e,
      ...(options.fileName !== undefined && { fileName: options.fileName }),
      ...(options.field !== undefined && { field: options.field }),
    });
  }
}

/** What a prim or variant holds, in the order written: child prim names and property names. */
interface Listing {
  children: string[];
  properties: string[];
}

class UsdaParser implements UsdaNesting {
  private readonly t: UsdaTokenizer;
  private readonly values: UsdaValueReader;
  private readonly specs = new Map<string, SdfSpec>();
  private depth = 0;

  constructor(
    text: string,
    private readonly identifier: string,
    options: ParseUsdaOptions,
  ) {
    this.t = new UsdaTokenizer(text, { name: identifier, ...options });
    this.values = new UsdaValueReader(this.t, this);
  }

  enter(): void {
    if (++this.depth > USDA_MAX_NESTING) this.t.fail(`nesting deeper than ${USDA_MAX_NESTING} levels is refused`);
  }

  leave(): void {
    this.depth--;
  }

  parse(): SdfLayer {
    const t: UsdaTokenizer = this.t;
    if (!t.at(USDA_MAGIC) || t.line !== 1) t.fail(`expected the "#usda 1.0" header on the first line, found ${t.describe()}`);
    if (!t.text.trimEnd().startsWith('#usda ')) t.fail(`the header "${t.text.trimEnd()}" is not "#usda <version>"`);
    t.next();
    const root = this.newSpec('/', 'pseudoRoot');
    if (t.isPunct('(')) this.metadata(root, '/', 'layer');
    const children: string[] = [];
    let statements = 0;
    while (!t.at(USDA_END)) {
      if (statements++ > 0 && !t.newlineBefore) t.fail(`expected a new line before ${t.describe()}`);
      if (t.isName('def') || t.isName('over') || t.isName('class')) this.prim('/', children);
      else if (t.isName('reorder')) {
        t.next();
        if (!t.isName('rootPrims')) t.fail(`expected "rootPrims" after "reorder" at the top of the layer, found ${t.describe()}`);
        t.next();
        t.expect('=', 'after "reorder rootPrims"');
        root.fields.set('primOrder', { kind: 'tokenList', value: this.nameList() });
      } else t.fail(`expected "def", "over" or "class", found ${t.describe()}`);
    }
    // OpenUSD records the root's children whenever the layer has prim statements.
    if (statements > 0) root.fields.set('primChildren', { kind: 'tokenList', value: children });
    // Variant selections are a std::map in USD: in key order.
    for (const spec of this.specs.values()) {
      const selection = spec.fields.get('variantSelection');
      if (selection?.kind === 'variantSelection')
        selection.value = new Map([...selection.value].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return { identifier: this.identifier, specs: this.specs };
  }

  // ---- Prims, variant sets, properties ----

  private prim(parent: string, siblings: string[]): void {
    const t: UsdaTokenizer = this.t;
    const specifier = t.text as 'def' | 'over' | 'class';
    t.next();
    let typeName = '';
    if (t.at(USDA_NAME)) {
      // A type name, possibly dotted (`Foo.Bar`) or C++-namespaced; never `a:b`.
      for (;;) {
        if (t.namespaced && !t.text.includes('::')) t.fail(`"${t.text}" is not a prim type name`);
        typeName += t.text;
        t.next();
        if (!t.isPunct('.')) break;
        t.next();
        if (!t.at(USDA_NAME)) t.fail(`expected a type name after "." in a prim type, found ${t.describe()}`);
        typeName += '.';
      }
    }
    if (!t.at(USDA_STRING))
      t.fail(`expected a prim name in quotes after "${specifier}${typeName ? ` ${typeName}` : ''}", found ${t.describe()}`);
    const name = t.text;
    if (!IDENTIFIER.test(name)) t.fail(`"${name}" is not a valid prim name`);
    const path = childPath(parent, name);
    if (this.specs.has(path)) t.fail(`duplicate prim ${path}`);
    this.enter();
    const spec = this.newSpec(path, 'prim');
    siblings.push(name);
    spec.fields.set('specifier', { kind: 'specifier', value: specifier });
    if (typeName) spec.fields.set('typeName', { kind: 'token', value: typeName });
    t.next();
    if (t.isPunct('(')) this.metadata(spec, path, 'prim');
    t.expect('{', `to open prim ${path}`);
    this.contents(spec, path);
    this.leave();
  }

  /** A prim's or variant's body after its `{`, through its `}`; records children and properties. */
  private contents(spec: SdfSpec, path: string): void {
    const t: UsdaTokenizer = this.t;
    const listing: Listing = { children: [], properties: [] };
    while (!t.isPunct('}')) {
      if (t.at(USDA_END)) t.fail(`expected "}" to close ${path}, found end of file`);
      if (!t.at(USDA_NAME)) t.fail(`expected a property, prim or variant set in ${path}, found ${t.describe()}`);
      const word = t.text;
      if (word === 'def' || word === 'over' || word === 'class') this.prim(path, listing.children);
      else if (word === 'variantSet') this.variantSet(spec, path);
      else if (word === 'reorder') {
        t.next();
        if (t.isName('nameChildren') || t.isName('properties')) {
          const field = t.text === 'nameChildren' ? 'primOrder' : 'propertyOrder';
          t.next();
          t.expect('=', `after "reorder ${field === 'primOrder' ? 'nameChildren' : 'properties'}"`);
          spec.fields.set(field, { kind: 'tokenList', value: this.nameList() });
        } else this.property(path, listing, 'reorder');
      } else if (LIST_OP_WORDS.has(word)) {
        t.next();
        this.property(path, listing, word as ListOpName);
      } else this.property(path, listing, 'explicit');
      if (!t.eat(';') && !t.isPunct('}') && !t.newlineBefore && !t.at(USDA_END))
        t.fail(`expected a new line or ";" after a statement in ${path}, found ${t.describe()}`);
    }
    t.next();
    if (listing.children.length) spec.fields.set('primChildren', { kind: 'tokenList', value: listing.children });
    if (listing.properties.length) spec.fields.set('properties', { kind: 'tokenList', value: listing.properties });
  }

  /** `variantSet "name" = { "variant" ( metadata ) { … } … }` on the prim (or variant) at `owner`. */
  private variantSet(ownerSpec: SdfSpec, owner: string): void {
    const t: UsdaTokenizer = this.t;
    t.next();
    if (!t.at(USDA_STRING)) t.fail(`expected a variant set name in quotes after "variantSet", found ${t.describe()}`);
    const setName = t.text;
    if (!VARIANT_NAME.test(setName) || setName === '') t.fail(`"${setName}" is not a valid variant set name`);
    t.next();
    t.expect('=', `after variantSet "${setName}"`);
    t.expect('{', `to open variantSet "${setName}"`);
    this.enter();
    const names: string[] = [];
    while (!t.isPunct('}')) {
      if (!t.at(USDA_STRING)) t.fail(`expected a variant name in quotes in variantSet "${setName}", found ${t.describe()}`);
      const variant = t.text;
      if (!VARIANT_NAME.test(variant)) t.fail(`"${variant}" is not a valid variant name`);
      names.push(variant);
      const path = variantPath(owner, setName, variant);
      const spec = this.specs.get(path) ?? this.newSpec(path, 'variant');
      t.next();
      if (t.isPunct('(')) this.metadata(spec, path, 'prim');
      t.expect('{', `to open variant "${variant}" of variantSet "${setName}"`);
      this.enter();
      this.contents(spec, path);
      this.leave();
    }
    if (names.length === 0) t.fail(`variantSet "${setName}" has no variants`);
    t.next();
    const setPath = variantPath(owner, setName, '');
    let setSpec = this.specs.get(setPath);
    if (!setSpec) {
      setSpec = this.newSpec(setPath, 'variantSet');
      appendToken(ownerSpec, 'variantSetChildren', setName);
    }
    setSpec.fields.set('variantChildren', { kind: 'tokenList', value: names });
    this.leave();
  }

  /** An attribute or relationship statement, after any list-op word. */
  private property(owner: string, listing: Listing, op: ListOpName): void {
    const t: UsdaTokenizer = this.t;
    let custom = false;
    if (t.isName('custom')) {
      custom = true;
      t.next();
    }
    if (t.isName('varying')) {
      t.next();
      if (!t.isName('rel')) t.fail(`expected "rel" after "varying", found ${t.describe()}`);
      this.relationship(owner, listing, op, custom, true);
      return;
    }
    if (t.isName('rel')) {
      this.relationship(owner, listing, op, custom, false);
      return;
    }
    let variability: 'uniform' | 'varying' = 'varying';
    if (t.isName('uniform') || t.isName('config')) {
      variability = 'uniform';
      t.next();
    }
    if (!t.at(USDA_NAME)) t.fail(`expected an attribute type or "rel", found ${t.describe()}`);
    let typeName = t.text;
    t.next();
    if (t.isPunct('[')) {
      t.next();
      t.expect(']', `after "${typeName}["`);
      typeName += '[]';
    }
    if (!usdaValueType(typeName.replace(/\[\]$/, ''))) t.fail(`unknown attribute type "${typeName}"`);
    const name = this.propertyName('attribute');
    const path = propertyPath(owner, name);
    const spec = this.declareAttribute(path, name, listing, typeName, variability, custom);
    if (t.eat('.')) {
      if (t.isName('connect')) {
        t.next();
        t.expect('=', `after "${name}.connect"`);
        this.connections(spec, owner, op);
        return;
      }
      if (t.isName('timeSamples')) {
        if (op !== 'explicit') t.fail(`"${op}" does not apply to time samples`);
        t.next();
        t.expect('=', `after "${name}.timeSamples"`);
        if (!t.isPunct('{')) t.fail(`expected "{" to open the time samples of ${name}, found ${t.describe()}`);
        spec.fields.set('timeSamples', this.values.timeSamples(typeName));
        return;
      }
      t.fail(`expected "connect" or "timeSamples" after "${name}.", found ${t.describe()}`);
    }
    if (op !== 'explicit') t.fail(`"${op}" applies to connections: expected "${name}.connect", found ${t.describe()}`);
    if (t.isPunct('=')) {
      t.next();
      if (t.isName('None')) {
        t.next();
        spec.fields.set('default', { kind: 'none' });
      } else spec.fields.set('default', this.values.typed(typeName));
    } else if (!t.newlineBefore && !t.at(USDA_END) && !t.isPunct('(') && !t.isPunct(';') && !t.isPunct('}')) {
      t.fail(`expected "=" after attribute name ${name}, found ${t.describe()}`);
    }
    if (t.isPunct('(')) this.metadata(spec, path, 'attribute');
  }

  private declareAttribute(
    path: string,
    name: string,
    listing: Listing,
    typeName: string,
    variability: 'uniform' | 'varying',
    custom: boolean,
  ): SdfSpec {
    const t: UsdaTokenizer = this.t;
    let spec = this.specs.get(path);
    if (!spec) {
      spec = this.newSpec(path, 'attribute');
      listing.properties.push(name);
      spec.fields.set('custom', { kind: 'bool', value: false });
    } else if (spec.type !== 'attribute') t.fail(`${name} is declared both as a relationship and as an attribute`);
    if (custom) spec.fields.set('custom', { kind: 'bool', value: true });
    const oldType = spec.fields.get('typeName');
    if (oldType?.kind === 'token' && oldType.value !== typeName)
      t.fail(`attribute ${name} already has type ${oldType.value}, cannot change to ${typeName}`);
    spec.fields.set('typeName', { kind: 'token', value: typeName });
    const oldVariability = spec.fields.get('variability');
    if (oldVariability?.kind === 'variability' && oldVariability.value !== variability)
      t.fail(`attribute ${name} already is ${oldVariability.value}, cannot change to ${variability}`);
    spec.fields.set('variability', { kind: 'variability', value: variability });
    return spec;
  }

  private relationship(owner: string, listing: Listing, op: ListOpName, custom: boolean, varying: boolean): void {
    const t: UsdaTokenizer = this.t;
    t.next(); // 'rel'
    const name = this.propertyName('relationship');
    const path = propertyPath(owner, name);
    let spec = this.specs.get(path);
    if (!spec) {
      spec = this.newSpec(path, 'relationship');
      listing.properties.push(name);
    } else if (spec.type !== 'relationship') t.fail(`${name} is declared both as an attribute and as a relationship`);
    // A relationship is uniform unless written `varying rel`.
    spec.fields.set('variability', { kind: 'variability', value: varying ? 'varying' : 'uniform' });
    if (custom) spec.fields.set('custom', { kind: 'bool', value: true });
    if (t.isPunct('.') || t.isPunct('['))
      t.fail(`relationship defaults, time samples and target specs (${name}${t.text}…) are not supported`);
    let targets: string[] | undefined;
    if (t.isPunct('=')) {
      t.next();
      targets = this.pathList(owner, 'target', true);
    } else if (!t.newlineBefore && !t.at(USDA_END) && !t.isPunct('(') && !t.isPunct(';') && !t.isPunct('}')) {
      t.fail(`expected "=" after relationship name ${name}, found ${t.describe()}`);
    }
    if (op === 'explicit' && t.isPunct('(')) this.metadata(spec, path, 'relationship');
    if (targets !== undefined) this.setPathListOp(spec, 'targetPaths', op, targets, 'relationship targets');
  }

  private connections(spec: SdfSpec, owner: string, op: ListOpName): void {
    this.setPathListOp(spec, 'connectionPaths', op, this.pathList(owner, 'connection', true), 'connection paths');
  }

  private setPathListOp(spec: SdfSpec, field: string, op: ListOpName, paths: string[], what: string): void {
    if (paths.length === 0 && op !== 'explicit')
      this.t.fail(`setting ${what} to None (or an empty list) is only allowed for an explicit list, not for "${op}"`);
    this.setListOp(spec, field, 'pathListOp', op, paths, String);
  }

  /**
   * `None`, one `<path>` or `[<path>, …]`, made absolute against the prim at `owner`. Targets and
   * connections (`anyPath`) may name prims or properties; inherits and specializes only prims.
   */
  private pathList(owner: string, what: 'target' | 'connection' | 'inherit' | 'specializes', anyPath: boolean): string[] {
    const t: UsdaTokenizer = this.t;
    if (t.isName('None')) {
      t.next();
      return [];
    }
    const anchor = namespacePath(owner);
    const one = (): string => {
      if (!t.at(USDA_PATH)) t.fail(`expected a <path> for the ${what}, found ${t.describe()}`);
      const resolved = resolveUsdaPath(t.text, anchor, anyPath);
      if (!resolved.ok) return t.fail(resolved.why);
      if (resolved.path === '/') t.fail(`<${t.text}> names the root, which is not a valid ${what} path`);
      if (!anyPath && resolved.variants) t.fail(`<${t.text}>: ${what} paths cannot contain variant selections`);
      if (!anyPath && resolved.property) t.fail(`<${t.text}> is not a prim path, which a ${what} path must be`);
      t.next();
      return resolved.path;
    };
    if (!t.isPunct('[')) return [one()];
    t.next();
    const paths: string[] = [];
    while (!t.isPunct(']')) {
      paths.push(one());
      if (!t.eat(',')) break;
    }
    t.expect(']', `or "," in a list of ${what} paths`);
    return paths;
  }

  private propertyName(what: string): string {
    const t: UsdaTokenizer = this.t;
    if (!t.at(USDA_NAME) || t.text.includes('::')) t.fail(`expected a ${what} name, found ${t.describe()}`);
    const name = t.text;
    t.next();
    return name;
  }

  // ---- Metadata ----

  /** `( … )` after a layer header, prim, variant or property: its metadata, into `spec`. */
  private metadata(spec: SdfSpec, path: string, kind: UsdaSpecKind): void {
    const t: UsdaTokenizer = this.t;
    t.next(); // '('
    while (!t.isPunct(')')) {
      if (t.at(USDA_END)) t.fail(`expected ")" to close the metadata of ${path}, found end of file`);
      this.metadatum(spec, path, kind);
      if (!t.eat(';') && !t.isPunct(')') && !t.newlineBefore && !t.at(USDA_END))
        t.fail(`expected a new line or ";" between metadata of ${path}, found ${t.describe()}`);
    }
    t.next();
  }

  private metadatum(spec: SdfSpec, path: string, kind: UsdaSpecKind): void {
    const t: UsdaTokenizer = this.t;
    const fields = spec.fields;
    if (t.at(USDA_STRING)) {
      fields.set('comment', { kind: 'string', value: t.text });
      t.next();
      return;
    }
    if (!t.at(USDA_NAME)) t.fail(`expected a metadata name in the metadata of ${path}, found ${t.describe()}`);
    let op: ListOpName = 'explicit';
    if (LIST_OP_WORDS.has(t.text)) {
      op = t.text as ListOpName;
      t.next();
      if (!t.at(USDA_NAME)) t.fail(`expected a metadata name after "${op}", found ${t.describe()}`);
    }
    const key = t.text;
    t.next();
    const onPrim = kind === 'prim',
      onProperty = kind === 'attribute' || kind === 'relationship';
    const explicitOnly = () => {
      if (op !== 'explicit') t.fail(`"${op}" does not apply to ${key}`);
    };
    const equals = () => t.expect('=', `after "${key}"`);
    switch (key) {
      case 'doc':
        explicitOnly();
        equals();
        fields.set('documentation', { kind: 'string', value: this.t.quoted(`the doc of ${path}`) });
        return;
      case 'kind':
        if (!onPrim) break;
        explicitOnly();
        equals();
        fields.set('kind', { kind: 'token', value: this.t.quoted('the kind') });
        return;
      case 'permission':
        if (!onPrim && !onProperty) break;
        explicitOnly();
        equals();
        if (!t.isName('public') && !t.isName('private')) t.fail(`${t.describe()} is not a valid permission (public or private)`);
        fields.set('permission', { kind: 'permission', value: t.text as 'public' | 'private' });
        t.next();
        return;
      case 'symmetryFunction':
        if (!onPrim && !onProperty) break;
        explicitOnly();
        equals();
        // The value may be left out (an empty function): it is a name on the same line, or nothing.
        if (t.at(USDA_NAME) && !t.newlineBefore) {
          fields.set('symmetryFunction', { kind: 'token', value: t.text });
          t.next();
        } else fields.set('symmetryFunction', { kind: 'token', value: '' });
        return;
      case 'displayUnit':
        if (kind !== 'attribute') break;
        explicitOnly();
        equals();
        if (!t.at(USDA_NAME)) t.fail(`expected a unit name for displayUnit, found ${t.describe()}`);
        fields.set('displayUnit', { kind: 'token', value: t.text });
        t.next();
        return;
      case 'references':
      case 'payload':
        if (!onPrim) break;
        equals();
        this.references(spec, key, op);
        return;
      case 'inherits':
      case 'specializes': {
        if (!onPrim) break;
        equals();
        const paths = this.pathList(path, key === 'inherits' ? 'inherit' : 'specializes', false);
        if (paths.length === 0 && op !== 'explicit')
          t.fail(`setting ${key} to None (or an empty list) is only allowed for an explicit list, not for "${op}"`);
        this.setListOp(spec, key === 'inherits' ? 'inheritPaths' : 'specializes', 'pathListOp', op, paths, String);
        return;
      }
      case 'relocates':
        if (!onPrim && kind !== 'layer') break;
        explicitOnly();
        equals();
        this.relocates(path);
        fields.set(kind === 'layer' ? 'layerRelocates' : 'relocates', { kind: 'unsupported', type: 'relocates' });
        return;
      case 'variants': {
        if (!onPrim) break;
        explicitOnly();
        equals();
        if (!t.isPunct('{')) t.fail(`expected "{" after "variants =", found ${t.describe()}`);
        const line = t.line;
        const chosen = this.values.dictionary();
        const old = fields.get('variantSelection');
        // Several `variants` dictionaries merge, as in OpenUSD; the merged map is sorted once the
        // layer is read (sorting at each merge would be quadratic in hostile text).
        const selection = old?.kind === 'variantSelection' ? old.value : new Map<string, string>();
        if (chosen.kind === 'dictionary') {
          for (const [set, v] of chosen.value) {
            if (v.kind !== 'string') t.fail(`the variant selection for "${set}" must be a string`, line);
            if (!VARIANT_NAME.test(v.value) && !v.value.startsWith('`')) t.fail(`"${v.value}" is not a valid variant selection`, line);
            selection.set(set, v.value);
          }
        }
        fields.set('variantSelection', { kind: 'variantSelection', value: selection });
        return;
      }
      case 'variantSets': {
        if (!onPrim) break;
        equals();
        const names = this.nameList();
        for (const n of names) if (!VARIANT_NAME.test(n) || n === '') t.fail(`"${n}" is not a valid variant set name`);
        this.setListOp(spec, 'variantSetNames', 'stringListOp', op, names, String);
        if (op === 'explicit' || op === 'add') {
          for (const n of names) {
            const setPath = variantPath(path, n, '');
            if (!this.specs.has(setPath)) this.newSpec(setPath, 'variantSet');
          }
          fields.set('variantSetChildren', { kind: 'tokenList', value: names });
        }
        return;
      }
      case 'prefixSubstitutions':
      case 'suffixSubstitutions':
        if (!onPrim) break;
        explicitOnly();
        equals();
        fields.set(key, this.values.stringDictionary());
        return;
      case 'subLayers':
        if (kind !== 'layer') break;
        explicitOnly();
        equals();
        this.subLayers(spec);
        return;
    }
    this.genericMetadatum(spec, kind, key, op);
  }

  /** A metadatum with no syntax of its own: read as its registered type, or kept as parsed. */
  private genericMetadatum(spec: SdfSpec, kind: UsdaSpecKind, key: string, op: ListOpName): void {
    const t: UsdaTokenizer = this.t;
    const type = usdaMetadataField(kind, key);
    if (type === 'notMetadata') t.fail(`"${key}" is a field that cannot be written as metadata here`);
    t.expect('=', `after "${key}"`);
    const none = t.isName('None');
    if (none) t.next();
    if (type === 'tokenListOp' || type === 'stringListOp') {
      const items = none ? [] : this.values.listItems(type === 'tokenListOp' ? 'token' : 'string');
      this.setListOp(spec, key, type, op, items, String);
    } else if (type === 'int64ListOp') {
      const items = none ? [] : this.values.listItems('int64');
      this.setListOp(spec, key, 'intListOp', op, items, String);
    } else if (type !== undefined) {
      if (op !== 'explicit') t.fail(`"${key}" is not a list op: "${op}" does not apply to it`);
      if (none) t.fail(`None is not a valid value for "${key}"`);
      spec.fields.set(key, this.values.field(type));
    } else if (op === 'explicit') {
      spec.fields.set(key, none ? { kind: 'none' } : this.values.untyped());
    } else {
      // An unregistered list op: kept when its items are all strings or all integers.
      const list = none ? { kind: 'stringListOp' as const, items: [] } : this.values.untypedList();
      if (!list) spec.fields.set(key, { kind: 'unsupported', type: 'listOp' });
      else if (list.kind === 'stringListOp') this.setListOp(spec, key, 'stringListOp', op, list.items, String);
      else this.setListOp(spec, key, 'intListOp', op, list.items, String);
    }
  }

  /** `references`/`payload` lists: `None`, one item or `[…]`; items `@asset@</Prim> (offset = 1; scale = 2)` or `</Prim>`. */
  private references(spec: SdfSpec, field: 'references' | 'payload', op: ListOpName): void {
    const t: UsdaTokenizer = this.t;
    const items: SdfReference[] = [];
    const noun = field === 'references' ? 'reference' : 'payload';
    const one = () => {
      let assetPath = '',
        primPath = '';
      if (t.at(USDA_ASSET)) {
        assetPath = t.text;
        if (assetPath === '') t.fail(`${noun} asset path must not be empty (an internal ${noun} is written without the "@" delimiters)`);
        t.next();
        if (t.at(USDA_PATH)) primPath = this.referencePrimPath(noun, false);
      } else if (t.at(USDA_PATH)) {
        primPath = this.referencePrimPath(noun, true);
      } else t.fail(`expected an @asset@ or a <prim path> for the ${noun}, found ${t.describe()}`);
      const layerOffset: SdfLayerOffset = { offset: 0, scale: 1 };
      if (t.isPunct('(')) {
        t.next();
        while (!t.isPunct(')')) {
          if (field === 'references' && t.isName('customData')) {
            // SdfReference's customData has no place in the layer model; read and left out.
            t.next();
            t.expect('=', 'after "customData"');
            this.values.dictionary();
          } else this.layerOffsetItem(layerOffset, noun);
          if (!t.eat(';') && !t.isPunct(')') && !t.newlineBefore)
            t.fail(`expected a new line or ";" in the ${noun}'s parameters, found ${t.describe()}`);
        }
        t.next();
      }
      items.push({ assetPath, primPath, layerOffset });
    };
    if (t.isName('None')) t.next();
    else if (t.isPunct('[')) {
      t.next();
      while (!t.isPunct(']')) {
        one();
        if (!t.eat(',')) break;
      }
      t.expect(']', `or "," in a list of ${noun}s`);
    } else one();
    if (items.length === 0 && op !== 'explicit')
      t.fail(`setting ${field} to None (or an empty list) is only allowed for an explicit list, not for "${op}"`);
    const key = (r: SdfReference) => `${r.assetPath}\u0000${r.primPath}\u0000${r.layerOffset.offset}\u0000${r.layerOffset.scale}`;
    this.setListOp(spec, field, field === 'references' ? 'referenceListOp' : 'payloadListOp', op, items, key);
  }

  /** The `</Prim>` of a reference or payload: empty, or an absolute prim path without variant selections. */
  private referencePrimPath(noun: string, internal: boolean): string {
    const t: UsdaTokenizer = this.t;
    const text = t.text;
    t.next();
    if (text === '') {
      if (!internal) t.fail(`<> is not a valid prim path for the ${noun}`);
      return '';
    }
    const resolved = resolveUsdaPath(text, '/', false);
    if (!resolved.ok) return t.fail(resolved.why);
    if (!text.startsWith('/') || resolved.property || resolved.path === '/')
      t.fail(`${noun} prim path <${text}> must be an absolute prim path`);
    if (resolved.variants) t.fail(`${noun} prim path <${text}> cannot contain variant selections`);
    return resolved.path;
  }

  private layerOffsetItem(into: SdfLayerOffset, noun: string): void {
    const t: UsdaTokenizer = this.t;
    if (!t.isName('offset') && !t.isName('scale'))
      t.fail(`expected "offset" or "scale" in the ${noun}'s layer offset, found ${t.describe()}`);
    const which = t.text as 'offset' | 'scale';
    t.next();
    t.expect('=', `after "${which}"`);
    if (!t.at(USDA_NUMBER)) t.fail(`expected a number for the ${which}, found ${t.describe()}`);
    into[which] = t.number;
    t.next();
  }

  /** `subLayers = [@a.usda@ (offset = 1; scale = 2), @b.usdc@]`: the `subLayers` and `subLayerOffsets` fields. */
  private subLayers(root: SdfSpec): void {
    const t: UsdaTokenizer = this.t;
    t.expect('[', 'to open the subLayers list');
    const paths: string[] = [],
      offsets: SdfLayerOffset[] = [];
    while (!t.isPunct(']')) {
      if (!t.at(USDA_ASSET)) t.fail(`expected an @asset path@ in subLayers, found ${t.describe()}`);
      paths.push(t.text);
      t.next();
      const offset: SdfLayerOffset = { offset: 0, scale: 1 };
      if (t.isPunct('(')) {
        t.next();
        do this.layerOffsetItem(offset, 'sublayer');
        while ((t.eat(';') || t.newlineBefore) && !t.isPunct(')'));
        t.expect(')', 'or ";" in a sublayer offset');
      }
      offsets.push(offset);
      if (!t.eat(',')) break;
    }
    t.expect(']', 'or "," in the subLayers list');
    if (paths.length === 0) return;
    root.fields.set('subLayers', { kind: 'stringList', value: paths });
    root.fields.set('subLayerOffsets', { kind: 'layerOffsets', value: offsets });
  }

  /** `{ <source>: <target>, … }`: read and checked (the layer model keeps no relocates). */
  private relocates(path: string): void {
    const t: UsdaTokenizer = this.t;
    t.expect('{', 'to open relocates');
    const anchor = namespacePath(path);
    const check = (text: string, mayBeEmpty: boolean) => {
      if (text === '' && mayBeEmpty) return;
      const resolved = resolveUsdaPath(text, anchor, false);
      if (!resolved.ok) t.fail(resolved.why);
      if (resolved.property || resolved.path === '/') t.fail(`<${text}> is not a valid relocates path`);
    };
    while (!t.isPunct('}')) {
      if (!t.at(USDA_PATH)) t.fail(`expected a <source path> in relocates, found ${t.describe()}`);
      check(t.text, false);
      t.next();
      t.expect(':', 'after a relocates source');
      if (!t.at(USDA_PATH)) t.fail(`expected a <target path> in relocates, found ${t.describe()}`);
      check(t.text, true);
      t.next();
      if (!t.eat(',')) break;
    }
    t.expect('}', 'or "," in relocates');
  }

  /** `"name"` or `["a", "b"]`: variant set names, child and property orders. */
  private nameList(): string[] {
    const t: UsdaTokenizer = this.t;
    if (!t.isPunct('[')) return [this.t.quoted('a name')];
    t.next();
    const names: string[] = [];
    do {
      if (names.length > 0 && t.isPunct(']')) break;
      names.push(this.t.quoted('a name'));
    } while (t.eat(','));
    t.expect(']', 'or "," in a list of names');
    return names;
  }

  // ---- Specs and fields ----

  private newSpec(path: string, type: SdfSpecType): SdfSpec {
    const spec: SdfSpec = { type, fields: new Map() };
    this.specs.set(path, spec);
    return spec;
  }

  /**
   * Sets one list of a list-op field as `SdfListOp::SetItems` does: an explicit list replaces
   * any edits, an edit replaces an explicit list; duplicate items are refused.
   */
  private setListOp<T>(spec: SdfSpec, field: string, kind: ListOpKind, op: ListOpName, items: T[], key: (item: T) => string): void {
    const seen = new Set<string>();
    for (const item of items) {
      const k = key(item);
      if (seen.has(k)) this.t.fail(`duplicate items in ${field}`);
      seen.add(k);
    }
    const old = spec.fields.get(field);
    let listOp: SdfListOp<T> = old?.kind === kind ? { ...(old.value as SdfListOp<T>) } : emptyListOp<T>();
    if (op === 'explicit') {
      if (!listOp.explicit) listOp = emptyListOp<T>();
      listOp.explicit = items;
    } else {
      if (listOp.explicit) listOp = emptyListOp<T>();
      listOp[LIST_OP_FIELD[op]] = items;
    }
    spec.fields.set(field, { kind, value: listOp } as SdfValue);
  }
}

type ListOpKind = 'tokenListOp' | 'stringListOp' | 'pathListOp' | 'intListOp' | 'referenceListOp' | 'payloadListOp';

function emptyListOp<T>(): SdfListOp<T> {
  return { prepended: [], appended: [], added: [], deleted: [], ordered: [] };
}

function appendToken(spec: SdfSpec, field: string, token: string): void {
  const old = spec.fields.get(field);
  // In place: a prim may have very many variant sets, and copying would make that quadratic.
  if (old?.kind === 'tokenList') old.value.push(token);
  else spec.fields.set(field, { kind: 'tokenList', value: [token] });
}

/** `/A{v=x}B` → `/A/B`: the prim a spec inside a variant stands for, against which relative paths resolve. */
function namespacePath(path: string): string {
  if (!path.includes('{')) return path;
  const stripped = path.replace(/\{[^}]*\}(?=[^/.{])/g, '/').replace(/\{[^}]*\}/g, '');
  return stripped === '' ? '/' : stripped;
}
