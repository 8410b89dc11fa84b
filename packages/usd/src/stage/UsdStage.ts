import { UsdUnreadableError } from '../errors/UsdError.js';
import { composeListOps } from '../sdf/listOps.js';
import type { SdfLayer, SdfListOp, SdfReference, SdfValue } from '../sdf/SdfLayer.js';
import { childPath, propertyPath, replacePrefix, variantPath } from '../sdf/sdfPath.js';
import { buildLayerStack, type LayerStack } from './LayerStack.js';
/** Where a stage's layers come from: a layer by asset path, resolved against the layer that names it. */
export interface LayerSource {
  open(assetPath: string, anchor: string): SdfLayer;
}
import { sampleAt } from './sampleAt.js';

/**
 * One source of opinions for a composed prim: a prim path in a layer stack, with the mapping of
 * that stack's paths onto the stage's (references and inherits put a prim under another name)
 * and of its times onto the stage's.
 */
interface PrimNode {
  stack: LayerStack;
  path: string;
  /** The stage path of a path in this node's namespace, or `undefined` when it lies outside what the arc brought in. */
  toStage: (path: string) => string | undefined;
  /** stage time = offset + scale × node time. */
  offset: number;
  scale: number;
}

/** A composed prim: its opinions (strongest first) and its children. */
export interface StagePrim {
  path: string;
  name: string;
  typeName: string;
  /** `def` when any opinion defines it; a prim only ever `over`ed or a `class` is not drawn. */
  specifier: 'def' | 'over' | 'class';
  parent: StagePrim | undefined;
  children: StagePrim[];
  nodes: readonly PrimNode[];
}

/** Limits that keep a hostile stage from running away (composition is otherwise unbounded). */
const MAX_ARC_DEPTH = 48;
const MAX_PRIMS = 1_000_000;
const MAX_NAMESPACE_DEPTH = 256;

/**
 * A USD stage composed from the layers of a package: the root layer stack (root layer and its
 * sublayers), and for every prim the opinions its arcs bring in, ordered as USD orders them —
 * each node before what its inherits, variant selections, references, payloads and specializes
 * bring (depth first), a stronger node's arcs before a weaker node's. Values are resolved at the
 * stage's start time (time samples over defaults, USD's rule at a numeric time).
 *
 * @example
 * ```ts
 * const stage = UsdStage.open(layers, entries[0].name);
 * stage.value(stage.prim('/World/Mesh')!, 'points');
 * ```
 */
export class UsdStage {
  readonly root: StagePrim;
  /** Stage metadata from the root layer. */
  readonly upAxis: string | undefined;
  readonly metersPerUnit: number | undefined;
  readonly defaultPrim: string | undefined;
  /** The time values are read at: `startTimeCode`, else the earliest sample of each attribute. */
  readonly time: number | undefined;
  /** What composition could not follow (a missing default prim, a variant set without a selection, …). */
  readonly problems: string[] = [];
  private readonly prims = new Map<string, StagePrim>();
  private count = 0;

  private constructor(
    private readonly layers: LayerSource,
    rootStack: LayerStack,
  ) {
    const meta = rootStack.root.specs.get('/')?.fields;
    const text = (v: SdfValue | undefined) => (v && (v.kind === 'token' || v.kind === 'string') ? v.value : undefined);
    const number = (v: SdfValue | undefined) => (v?.kind === 'number' ? v.value : undefined);
    this.upAxis = text(meta?.get('upAxis'));
    this.metersPerUnit = number(meta?.get('metersPerUnit'));
    this.defaultPrim = text(meta?.get('defaultPrim'));
    this.time = number(meta?.get('startTimeCode'));
    this.root = {
      path: '/',
      name: '',
      typeName: '',
      specifier: 'def',
      parent: undefined,
      children: [],
      nodes: [identityNode(rootStack, '/')],
    };
    this.addChildren(this.root, 0);
  }

  /**
   * Composes the stage whose root layer is package entry `rootName`.
   *
   * @example
   * ```ts
   * const stage = UsdStage.open(new PackageLayers(entries, { label: 'a.usdz' }), 'a.usdc');
   * ```
   */
  static open(layers: LayerSource, rootName: string): UsdStage {
    const open = (asset: string, anchor: string) => layers.open(asset, anchor);
    return new UsdStage(layers, buildLayerStack(layers.open(rootName, ''), open));
  }

  /** The prim at a stage path. */
  prim(path: string): StagePrim | undefined {
    return path === '/' ? this.root : this.prims.get(path);
  }

  /** Every prim, parents before children. */
  *traverse(from: StagePrim = this.root): Generator<StagePrim> {
    for (const child of from.children) {
      yield child;
      yield* this.traverse(child);
    }
  }

  /** The strongest opinion of a prim metadatum (`kind`, `instanceable`, `active`, …). */
  primField(prim: StagePrim, field: string): SdfValue | undefined {
    for (const node of prim.nodes) {
      const v = node.stack.field(node.path, field);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /** A list-op prim field (`apiSchemas`) composed over every opinion, weakest first. */
  primList(prim: StagePrim, field: string): string[] {
    const ops: Array<SdfListOp<string>> = [];
    for (const node of prim.nodes) ops.push(...stringOps(node, field));
    return composeListOps(ops);
  }

  /** Names of the prim's properties, strongest node's order first. */
  propertyNames(prim: StagePrim): string[] {
    const names = new Set<string>();
    for (const node of prim.nodes) {
      for (const { spec } of node.stack.specsAt(node.path)) {
        const props = spec.fields.get('properties');
        if (props?.kind === 'tokenList') for (const p of props.value) names.add(p);
      }
    }
    return [...names];
  }

  /** The strongest opinion of a field of property `name` (`typeName`, `interpolation`, `elementSize`, …). */
  propertyField(prim: StagePrim, name: string, field: string): SdfValue | undefined {
    for (const node of prim.nodes) {
      const v = node.stack.field(propertyPath(node.path, name), field);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /**
   * The value of attribute `name` at the stage's time: the strongest opinion, a time sample
   * (interpolated, in the node's time) winning over a default in the same layer. A value block
   * (`None`) means no value.
   */
  value(prim: StagePrim, name: string): SdfValue | undefined {
    return this.opinion(prim, name)?.value;
  }

  /**
   * An asset-valued attribute (a texture's `inputs:file`) with the layer that authored it, against
   * whose folder its path resolves.
   */
  asset(prim: StagePrim, name: string): { path: string; layer: string } | undefined {
    const found = this.opinion(prim, name);
    return found?.value.kind === 'asset' && found.value.value ? { path: found.value.value, layer: found.layer } : undefined;
  }

  private opinion(prim: StagePrim, name: string): { value: SdfValue; layer: string } | undefined {
    for (const node of prim.nodes) {
      for (const { spec, at } of node.stack.specsAt(propertyPath(node.path, name))) {
        const samples = spec.fields.get('timeSamples');
        let v: SdfValue | undefined;
        if (samples?.kind === 'timeSamples' && samples.value.size > 0) {
          const stageToLayer = (t: number) => ((t - node.offset) / node.scale - at.offset) / at.scale;
          v = sampleAt(samples.value, this.time === undefined ? undefined : stageToLayer(this.time));
        } else {
          v = spec.fields.get('default');
        }
        if (v !== undefined) return v.kind === 'none' ? undefined : { value: v, layer: at.layer.identifier };
      }
    }
    return undefined;
  }

  /** Targets of relationship `name`, as stage paths (list ops composed weakest first). */
  targets(prim: StagePrim, name: string): string[] {
    return this.paths(prim, name, 'targetPaths');
  }

  /** Sources attribute `name` is connected to, as stage paths. */
  connections(prim: StagePrim, name: string): string[] {
    return this.paths(prim, name, 'connectionPaths');
  }

  private paths(prim: StagePrim, name: string, field: string): string[] {
    const ops: Array<SdfListOp<string>> = [];
    for (const node of prim.nodes) {
      for (const { spec } of node.stack.specsAt(propertyPath(node.path, name))) {
        const v = spec.fields.get(field);
        if (v?.kind !== 'pathListOp') continue;
        const map = (list: string[]) =>
          list.flatMap((p) => {
            const mapped = node.toStage(p);
            return mapped === undefined ? [] : [mapped];
          });
        const op = v.value;
        ops.push({
          ...(op.explicit && { explicit: map(op.explicit) }),
          prepended: map(op.prepended),
          appended: map(op.appended),
          added: map(op.added),
          deleted: map(op.deleted),
          ordered: [],
        });
      }
    }
    return composeListOps(ops);
  }

  // ---- Composition ----

  private addChildren(parent: StagePrim, depth: number): void {
    if (depth > MAX_NAMESPACE_DEPTH)
      throw new UsdUnreadableError(`the prim hierarchy is deeper than ${MAX_NAMESPACE_DEPTH} levels (at ${parent.path})`);
    for (const name of childNames(parent.nodes)) {
      const path = childPath(parent.path, name);
      const initial = parent.nodes.flatMap((n) => {
        const p = childPath(n.path, name);
        return n.stack.has(p) ? [{ ...n, path: p }] : [];
      });
      const nodes: PrimNode[] = [];
      for (const node of initial) this.expand(node, nodes, 0, new Set());
      if (++this.count > MAX_PRIMS) throw new UsdUnreadableError(`the stage has more than ${MAX_PRIMS} prims`);
      const prim: StagePrim = { path, name, typeName: '', specifier: 'over', parent, children: [], nodes };
      prim.typeName = this.token(prim, 'typeName') ?? '';
      prim.specifier = specifierOf(nodes);
      const active = this.primField(prim, 'active');
      if (active?.kind === 'bool' && !active.value) continue; // an inactive prim and its subtree are not on the stage
      this.prims.set(path, prim);
      parent.children.push(prim);
      this.addChildren(prim, depth + 1);
    }
  }

  /**
   * Appends `node` and, depth first, the nodes its arcs bring: inherits, variant selections,
   * references, payloads, specializes (USD's strength order within a node).
   */
  private expand(node: PrimNode, out: PrimNode[], depth: number, chain: Set<string>): void {
    const id = `${node.stack.id}\u0000${node.path}`;
    if (chain.has(id) || depth > MAX_ARC_DEPTH) {
      this.problem(`composition cycle or arc chain too deep at ${node.path} in ${node.stack.id}`);
      return;
    }
    chain = new Set(chain).add(id);
    out.push(node);
    const listOf = (field: string) => composedOps(node, field);
    const expandTo = (target: PrimNode) => this.expand(target, out, depth + 1, chain);

    for (const cls of [...listOf('inheritPaths')]) if (typeof cls === 'string') expandTo(this.internalArc(node, cls));
    for (const set of composeListOps(stringOps(node, 'variantSetNames'))) {
      const selection = this.variantSelection(out, set);
      if (selection === undefined) continue;
      const path = variantPath(node.path, set, selection);
      if (node.stack.has(path)) expandTo({ ...node, path });
      else this.problem(`variant ${set}=${selection} of ${node.path} is not in its variant set`);
    }
    for (const field of ['references', 'payload']) {
      for (const ref of listOf(field)) {
        if (typeof ref === 'string') continue;
        const target = this.referenceArc(node, ref);
        if (target) expandTo(target);
      }
    }
    for (const cls of [...listOf('specializes')]) if (typeof cls === 'string') expandTo(this.internalArc(node, cls));
  }

  /** An inherit or specialize: another prim of the same layer stack, put at this node's path. */
  private internalArc(node: PrimNode, target: string): PrimNode {
    return { ...node, path: target, toStage: (p) => mapThrough(p, target, node.path, node.toStage) };
  }

  /** A reference or payload: a prim of another layer (or of this stack, when the asset is empty). */
  private referenceArc(node: PrimNode, ref: SdfReference): PrimNode | undefined {
    let stack = node.stack;
    if (ref.assetPath) {
      stack = buildLayerStack(this.layers.open(ref.assetPath, anchorOf(node, ref.assetPath)), (a, from) => this.layers.open(a, from));
    }
    let target = ref.primPath;
    if (!target) {
      const dp = stack.field('/', 'defaultPrim');
      target = dp && (dp.kind === 'token' || dp.kind === 'string') ? `/${dp.value}` : '';
      if (!target) {
        this.problem(`${stack.id} is referenced without a prim path and names no defaultPrim`);
        return undefined;
      }
    }
    if (!stack.has(target)) {
      this.problem(`reference to ${target} in ${stack.id}: no such prim`);
      return undefined;
    }
    const { offset = 0, scale = 1 } = ref.layerOffset ?? {};
    return {
      stack,
      path: target,
      toStage: (p) => mapThrough(p, target, node.path, node.toStage),
      offset: node.offset + node.scale * offset,
      scale: node.scale * scale,
    };
  }

  /** The selection of variant set `set`: the strongest opinion among the nodes found so far. */
  private variantSelection(nodes: readonly PrimNode[], set: string): string | undefined {
    for (const node of nodes) {
      for (const { spec } of node.stack.specsAt(node.path)) {
        const v = spec.fields.get('variantSelection');
        const selection = v?.kind === 'variantSelection' ? v.value.get(set) : undefined;
        if (selection) return selection;
      }
    }
    return undefined;
  }

  private token(prim: StagePrim, field: string): string | undefined {
    const v = this.primField(prim, field);
    return v && (v.kind === 'token' || v.kind === 'string') ? v.value : undefined;
  }

  private problem(text: string): void {
    if (this.problems.length < 20 && !this.problems.includes(text)) this.problems.push(text);
  }
}

function identityNode(stack: LayerStack, path: string): PrimNode {
  return { stack, path, toStage: (p) => p, offset: 0, scale: 1 };
}

/** A path of the arc's target namespace (under `from`) on the stage, through the node that made the arc. */
function mapThrough(path: string, from: string, to: string, outer: (p: string) => string | undefined): string | undefined {
  const local = replacePrefix(path, from, stripVariants(to));
  return local === undefined ? undefined : outer(local);
}

/** `/A{v=x}B` → `/A/B`: the namespace path a variant's contents stand for. */
function stripVariants(path: string): string {
  return path.replace(/\{[^}]*\}(?=[^/.{])/g, '/').replace(/\{[^}]*\}/g, '');
}

/** The layer whose folder an asset path of this node resolves against: the one that authored the arc. */
function anchorOf(node: PrimNode, assetPath: string): string {
  for (const { spec, at } of node.stack.specsAt(node.path)) {
    for (const field of ['references', 'payload']) {
      const v = spec.fields.get(field);
      const items =
        v?.kind === 'referenceListOp' || v?.kind === 'payloadListOp'
          ? allItems(v.value)
          : v?.kind === 'payload' && v.value
            ? [v.value]
            : [];
      if (items.some((r) => r.assetPath === assetPath)) return at.layer.identifier;
    }
  }
  return node.stack.root.identifier;
}

/** Composed list of an arc field on a node: paths for inherits/specializes, references for references/payload. */
function composedOps(node: PrimNode, field: string): Array<string | SdfReference> {
  const ops: Array<SdfListOp<string | SdfReference>> = [];
  for (const { spec } of node.stack.specsAt(node.path)) {
    const v = spec.fields.get(field);
    if (!v) continue;
    if (v.kind === 'pathListOp' || v.kind === 'referenceListOp' || v.kind === 'payloadListOp') ops.push(v.value);
    else if (v.kind === 'payload' && v.value)
      ops.push({ explicit: [v.value], prepended: [], appended: [], added: [], deleted: [], ordered: [] });
  }
  return composeListOps(ops, (item) => (typeof item === 'string' ? item : `${item.assetPath}<${item.primPath}>`));
}

function stringOps(node: PrimNode, field: string): Array<SdfListOp<string>> {
  const ops: Array<SdfListOp<string>> = [];
  for (const { spec } of node.stack.specsAt(node.path)) {
    const v = spec.fields.get(field);
    if (v?.kind === 'stringListOp' || v?.kind === 'tokenListOp') ops.push(v.value);
  }
  return ops;
}

function allItems<T>(op: SdfListOp<T>): T[] {
  return [...(op.explicit ?? []), ...op.prepended, ...op.appended, ...op.added];
}

/** Child names over every node, the strongest node's order first. */
function childNames(nodes: readonly PrimNode[]): string[] {
  const names = new Set<string>();
  for (const node of nodes) {
    for (const { spec } of node.stack.specsAt(node.path)) {
      const children = spec.fields.get('primChildren');
      if (children?.kind === 'tokenList') for (const c of children.value) names.add(c);
    }
  }
  return [...names];
}

/** The strongest specifier that is not `over` (USD's rule); `over` when every opinion is one. */
function specifierOf(nodes: readonly PrimNode[]): StagePrim['specifier'] {
  for (const node of nodes) {
    for (const { spec } of node.stack.specsAt(node.path)) {
      const v = spec.fields.get('specifier');
      if (v?.kind === 'specifier' && v.value !== 'over') return v.value;
    }
  }
  return 'over';
}
