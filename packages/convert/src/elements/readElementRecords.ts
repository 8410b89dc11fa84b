import type { StepFile } from '../ifc/step/StepFile.js';
import { stepReferences, stepText, type StepValue } from '../ifc/step/StepValue.js';
import type { StepEntity } from '../ifc/step/readStepEntity.js';
import type { ElementRecord, PropertyValue } from './ElementRecord.js';

/** What {@link readElementRecords} needs of the model beyond its STEP text. */
export interface ElementRecordSource {
  file: StepFile;
  /** Ids of the entities of one of {@link ELEMENT_RECORD_RELATIONS}, from the model's index. */
  idsOf(ifcClass: ElementRecordRelation): number[];
  /** The element's class as the model names it (`IfcWall`). */
  classOf(id: number): string;
  /** The name of the storey (or container) holding the element; `undefined` when none does. */
  storeyOf(id: number): string | undefined;
}

/** The relationships a record is read through: {@link ElementRecordSource.idsOf} is asked for these classes only. */
export const ELEMENT_RECORD_RELATIONS = ['IFCRELDEFINESBYPROPERTIES', 'IFCRELDEFINESBYTYPE', 'IFCRELASSOCIATESMATERIAL'] as const;

/** One of {@link ELEMENT_RECORD_RELATIONS}. */
export type ElementRecordRelation = (typeof ELEMENT_RECORD_RELATIONS)[number];

// Attribute positions (0-based), the same in IFC2X3, IFC4 and IFC4X3.
const ROOT = { globalId: 0, name: 2 };
const REL = { related: 4, relating: 5 };
const PROPERTY_SET = { type: 'IFCPROPERTYSET', name: 2, items: 4 };
const TYPE_OBJECT = { name: 2, propertySets: 5 };
const ELEMENT_QUANTITY = { type: 'IFCELEMENTQUANTITY', name: 2, items: 5 };
/** A property's or a quantity's name, first in both. */
const ITEM_NAME = 0;
const PROPERTY = { value: 2 };
const QUANTITY = { value: 3 };
/** How deep a material definition is followed (usage → set → layer → material). */
const MATERIAL_DEPTH = 5;

/**
 * The records of `elements` (entity ids) as the file states them: class, name, type, storey,
 * materials, property sets and quantities. Read from the STEP text by the relationships IFC
 * defines (`IfcRelDefinesByProperties`, `IfcRelDefinesByType`, `IfcRelAssociatesMaterial`), each
 * once, so a model of ten thousand elements is read in one pass over its relationships. A
 * property set, quantity set or type that several elements name is one object shared by their
 * records: read them, or copy before changing one.
 *
 * @example
 * ```ts
 * const [door] = readElementRecords(source, [doorId]);
 * door!.property_sets.Pset_DoorCommon?.FireRating; // → 'EI30'
 * ```
 */
export function readElementRecords(source: ElementRecordSource, elements: Iterable<number>): ElementRecord[] {
  const { file } = source;
  const text = (id: number, at: number) => stepText(file.attribute(id, at)) ?? '';
  const definitions = relatedTo(source, 'IFCRELDEFINESBYPROPERTIES');
  const types = relatedTo(source, 'IFCRELDEFINESBYTYPE');
  const materials = relatedTo(source, 'IFCRELASSOCIATESMATERIAL');
  // A set, a type or a material is most often shared (a type's sets by each of its occurrences, a
  // relationship's set by every element it names): each is read from the text once, and the
  // records naming it share the one object (see the note on sharing above).
  const propertySet = once((id) => namedSet(file, id, PROPERTY_SET, (property) => propertyValue(property.type, property.attributes)));
  const quantitySet = once((id) => namedSet(file, id, ELEMENT_QUANTITY, (quantity) => numberOf(quantity.attributes[QUANTITY.value])));
  const materialsOf = once((id) => materialNames(file, id, MATERIAL_DEPTH, new Set()));
  const typeOf = once((typeId): ElementRecord['type'] => {
    const entity = file.entity(typeId);
    return !entity
      ? null
      : {
          ifc_class: source.classOf(typeId),
          name: stepText(entity.attributes[TYPE_OBJECT.name]) ?? '',
          property_sets: byName(stepReferences(entity.attributes[TYPE_OBJECT.propertySets]), propertySet),
        };
  });
  return [...elements].map((id) => {
    const defined = definitions.get(id) ?? [];
    const typeId = types.get(id)?.[0];
    const globalId = text(id, ROOT.globalId);
    return {
      id: globalId,
      global_id: globalId,
      ifc_class: source.classOf(id),
      name: text(id, ROOT.name),
      type: typeId === undefined ? null : typeOf(typeId),
      storey: source.storeyOf(id) ?? null,
      materials: [...new Set((materials.get(id) ?? []).flatMap(materialsOf))],
      property_sets: byName(defined, propertySet),
      quantities: byName(defined, quantitySet),
    };
  });
}

/** `read`, remembering its answer for each id. */
function once<T>(read: (id: number) => T): (id: number) => T {
  const known = new Map<number, T>();
  return (id) => {
    if (known.has(id)) return known.get(id)!;
    const value = read(id);
    known.set(id, value);
    return value;
  };
}

/** The sets among `ids` that `setOf` reads (those of its kind), by name; a later set of a name replaces an earlier one. */
function byName<T>(ids: readonly number[], setOf: (id: number) => NamedSet<T> | undefined): Record<string, Record<string, T>> {
  const sets = byKey<Record<string, T>>();
  for (const id of ids) {
    const set = setOf(id);
    if (set) sets[set.name] = set.items;
  }
  return sets;
}

/**
 * An object for names the file chooses: without a prototype, a set or a property the file names
 * `__proto__` is one more name, not a change of prototype that would drop it from the record.
 */
function byKey<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** A property set or quantity set: its name and its items by name. */
interface NamedSet<T> {
  name: string;
  items: Record<string, T>;
}

/**
 * Set `id` if it is of `kind` (a property set, a quantity set), with its items by name and the
 * values `readValue` reads; items without a name or a value are left out. A set without a name
 * is named by its id.
 */
function namedSet<T>(
  file: StepFile,
  id: number,
  kind: { type: string; name: number; items: number },
  readValue: (item: StepEntity) => T | undefined,
): NamedSet<T> | undefined {
  const entity = file.entity(id);
  if (entity?.type !== kind.type) return undefined;
  const items = byKey<T>();
  for (const ref of stepReferences(entity.attributes[kind.items])) {
    const item = file.entity(ref);
    const name = stepText(item?.attributes[ITEM_NAME]);
    const value = item && readValue(item);
    if (name !== undefined && value !== undefined) items[name] = value;
  }
  return { name: stepText(entity.attributes[kind.name]) ?? `#${id}`, items };
}

/**
 * The type objects that relationships of `IfcRelDefinesByType` (`typeRelations`) name: a record
 * states each one's class, which {@link ElementRecordSource.classOf} must know.
 *
 * @example
 * ```ts
 * classes.read(recordTypeObjects(file, idsOf('IFCRELDEFINESBYTYPE')));
 * ```
 */
export function recordTypeObjects(file: StepFile, typeRelations: readonly number[]): number[] {
  return typeRelations.flatMap((rel) => stepReferences(file.attribute(rel, REL.relating)).slice(0, 1));
}

/** For each related object of the relationships of `ifcClass`, what they relate it to (their `relating` attribute), in file order. */
function relatedTo(source: ElementRecordSource, ifcClass: ElementRecordRelation): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const rel of source.idsOf(ifcClass)) {
    const relating = stepReferences(source.file.attribute(rel, REL.relating))[0];
    if (relating === undefined) continue;
    for (const object of stepReferences(source.file.attribute(rel, REL.related))) {
      const list = out.get(object) ?? [];
      list.push(relating);
      out.set(object, list);
    }
  }
  return out;
}

/**
 * The names of the materials a material definition reaches: a material itself, or through a
 * usage, a set, its layers, constituents or profiles, whatever the schema calls them.
 */
function materialNames(file: StepFile, id: number, depth: number, seen: Set<number>): string[] {
  if (depth < 0 || seen.has(id)) return [];
  seen.add(id);
  const entity = file.entity(id);
  if (!entity) return [];
  if (entity.type === 'IFCMATERIAL') return [stepText(entity.attributes[0]) ?? ''];
  return entity.attributes.flatMap((a) => stepReferences(a).flatMap((r) => materialNames(file, r, depth - 1, seen)));
}

/**
 * A property's value as the file states it: a single value's nominal value, an enumerated or list
 * value's items, a bounded value's bounds; `undefined` for kinds of property that state none.
 */
function propertyValue(type: string, attributes: StepValue[]): PropertyValue | undefined {
  switch (type) {
    case 'IFCPROPERTYSINGLEVALUE':
      return scalar(attributes[PROPERTY.value]);
    case 'IFCPROPERTYENUMERATEDVALUE':
    case 'IFCPROPERTYLISTVALUE': {
      const list = attributes[2];
      return list?.kind === 'list' ? list.items.map((v) => scalar(v)) : null;
    }
    case 'IFCPROPERTYBOUNDEDVALUE':
      return [scalar(attributes[3]), scalar(attributes[2])]; // lower, upper
    default:
      return undefined;
  }
}

/** A typed value (`IFCLABEL('x')`, `IFCBOOLEAN(.T.)`, `IFCLENGTHMEASURE(2.1)`) as JSON. */
function scalar(value: StepValue | undefined): string | number | boolean | null {
  let v = value;
  while (v?.kind === 'typed') v = v.value;
  if (!v) return null;
  switch (v.kind) {
    case 'string':
      return v.value;
    case 'integer':
    case 'real':
      return v.value;
    case 'enum':
      return v.value === 'T' ? true : v.value === 'F' ? false : v.value === 'U' ? null : v.value;
    default:
      return null;
  }
}

function numberOf(value: StepValue | undefined): number | undefined {
  const v = scalar(value);
  return typeof v === 'number' ? v : undefined;
}
