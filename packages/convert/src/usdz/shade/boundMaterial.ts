import { hasPathPrefix, splitPropertyPath, type StagePrim, type UsdStage } from '@arsession/usd';

const DIRECT = 'material:binding';
const COLLECTION = 'material:binding:collection:';
/** Bindings for previews (AR) first, then all-purpose ones, as UsdShade resolves the `preview` purpose. */
const PURPOSES = ['preview', ''] as const;

interface Binding {
  material: StagePrim;
  strongerThanDescendants: boolean;
}

/**
 * The Material bound to a prim, as UsdShade's `ComputeBoundMaterial` finds it for the preview
 * purpose: the nearest prim (itself, then its ancestors) with a binding that applies to it wins —
 * at one prim, collection bindings that include it before the direct binding, preview bindings
 * before all-purpose ones — unless an ancestor's binding is `strongerThanDescendants`, in which
 * case the highest such ancestor wins. Bindings to anything but a Material are ignored.
 *
 * @example
 * ```ts
 * boundMaterial(stage, stage.prim('/World/Chair/Seat')!)?.path; // → '/World/Looks/Oak'
 * ```
 */
export function boundMaterial(stage: UsdStage, prim: StagePrim): StagePrim | undefined {
  let winner: Binding | undefined;
  for (let p: StagePrim | undefined = prim; p && p.path !== '/'; p = p.parent) {
    const found = bindingAt(stage, p, prim.path);
    if (found && (!winner || found.strongerThanDescendants)) winner = found;
  }
  return winner?.material;
}

function bindingAt(stage: UsdStage, at: StagePrim, target: string): Binding | undefined {
  const names = stage.propertyNames(at).filter((n) => n.startsWith(DIRECT));
  for (const purpose of PURPOSES) {
    for (const name of names.filter((n) => n.startsWith(COLLECTION) && collectionPurpose(n) === purpose)) {
      const [collection, material] = stage.targets(at, name);
      if (!collection || !material || !inCollection(stage, collection, target, 0)) continue;
      const binding = materialBinding(stage, at, name, material);
      if (binding) return binding;
    }
    const direct = purpose ? `${DIRECT}:${purpose}` : DIRECT;
    const [material] = names.includes(direct) ? stage.targets(at, direct) : [];
    const binding = material && materialBinding(stage, at, direct, material);
    if (binding) return binding;
  }
  return undefined;
}

/** `material:binding:collection:preview:name` → 'preview'; `material:binding:collection:name` → ''. */
function collectionPurpose(name: string): string {
  const parts = name.slice(COLLECTION.length).split(':');
  return parts.length > 1 ? parts[0]! : '';
}

function materialBinding(stage: UsdStage, at: StagePrim, name: string, materialPath: string): Binding | undefined {
  const material = stage.prim(materialPath);
  if (material?.typeName !== 'Material') return undefined;
  const strength = stage.propertyField(at, name, 'bindMaterialAs');
  return { material, strongerThanDescendants: strength?.kind === 'token' && strength.value === 'strongerThanDescendants' };
}

/**
 * Whether `target` is in the collection at `collectionPath` (`/Prim.collection:name`): included
 * (itself, or with its descendants unless the expansion rule is `explicitOnly`), including
 * through nested collections, and not excluded.
 */
function inCollection(stage: UsdStage, collectionPath: string, target: string, depth: number): boolean {
  if (depth > 16) return false;
  const [primPath, property] = splitPropertyPath(collectionPath);
  const owner = stage.prim(primPath);
  const name = property.startsWith('collection:') ? property.slice('collection:'.length) : '';
  if (!owner || !name) return false;
  const rule = stage.value(owner, `collection:${name}:expansionRule`);
  const explicitOnly = rule?.kind === 'token' && rule.value === 'explicitOnly';
  const covers = (path: string) => (explicitOnly ? path === target : hasPathPrefix(target, path));
  const includeRoot = stage.value(owner, `collection:${name}:includeRoot`);
  const included =
    (includeRoot?.kind === 'bool' && includeRoot.value && !explicitOnly) ||
    stage
      .targets(owner, `collection:${name}:includes`)
      .some((p) => (p.includes('.collection:') ? inCollection(stage, p, target, depth + 1) : covers(p)));
  return included && !stage.targets(owner, `collection:${name}:excludes`).some(covers);
}
