// The wire records the converter makes, as TypeBox schemas: each the one declaration its
// TypeScript type (Static) and the server's OpenAPI schema come from. A module of its own, behind
// the `@arsession/convert/schemas` subpath: TypeBox costs ~50 ms to load, which a command-line
// conversion never pays (the record functions import these types only).
import { type Static, type TSchema, Type } from '@sinclair/typebox';

/**
 * A storey of a delivered USDZ, as the detail record and the CLI's `--json` state it: the one
 * declaration its TypeScript type and the server's OpenAPI schema (`AssetStorey`) come from.
 */
export const StoreyOnWire = Type.Object(
  {
    name: Type.String({ description: 'its name as the file states it (a site or building standing for a storey: its name)' }),
    ifc_class: Type.Union([Type.String(), Type.Null()], {
      description:
        'IfcBuildingStorey, or the class of the container standing for one (IfcSite, IfcBuilding); ' +
        'null where merged containers of one name are of different classes',
    }),
    elevation_m: Type.Union([Type.Number(), Type.Null()], {
      description: "metres above the project's datum, as the file states it (IfcBuildingStorey.Elevation); null when it states none",
    }),
    prim_path: Type.String({
      description:
        'its Xform in the USDZ (/Model/Level_1); a RealityKit entity is named after the last component, ' +
        "and so is the variant of /Model's `storey` variant set that shows this storey alone",
    }),
  },
  { additionalProperties: false },
);
/** A storey of a delivered USDZ (see the schema of the same name). */
export type StoreyOnWire = Static<typeof StoreyOnWire>;

/** A part's storey as the file names it: the one declaration of its type and of the OpenAPI schema `PartStorey`. */
export const PartStoreyOnWire = Type.Object(
  {
    name: Type.String(),
    global_id: Type.String({ description: 'its IFC GlobalId' }),
    ifc_class: Type.String({ description: 'IfcBuildingStorey, or the class of the container standing for one (IfcBuilding, IfcSite)' }),
    elevation_m: Type.Union([Type.Number(), Type.Null()], {
      description: "metres above the project's datum, as the file states it (IfcBuildingStorey.Elevation); null when it states none",
    }),
  },
  { additionalProperties: false },
);
/** A part's storey (see the schema of the same name). */
export type PartStoreyOnWire = Static<typeof PartStoreyOnWire>;

/** `schema` or `null`, described: how the wire says a field may be absent. */
export const nullable = <T extends TSchema>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });
/** A whole number from 0: a count, a size in bytes, an index. */
export const count = (description?: string) => Type.Integer({ minimum: 0, ...(description !== undefined && { description }) });
/** A SHA-256 in lowercase hex, as every file's digest is stated. */
export const sha256Hex = () => Type.String({ pattern: '^[0-9a-f]{64}$' });
const metres = (description: string) => Type.Number({ minimum: 0, description });

/** Figures of a model the AR budget limits, as the detail record states them (OpenAPI `ArBudgetFigures`). */
export const BudgetFiguresOnWire = Type.Object(
  {
    triangles: count(),
    mesh_prims: count(),
    largest_texture_px: count('longest side of the largest texture; 0 without textures'),
    bytes: nullable(count(), "the upload's bytes (source) or the USDZ package's (delivered)"),
  },
  { additionalProperties: false },
);
/** Figures of a model the AR budget limits (see the schema of the same name). */
export type BudgetFiguresOnWire = Static<typeof BudgetFiguresOnWire>;

/** What one category of element (envelope, furniture, MEP, other) gave up to the AR budget (OpenAPI `ArBudgetCategory`). */
export const CategoryOnWire = Type.Object(
  {
    category: Type.Union([Type.Literal('envelope'), Type.Literal('furniture'), Type.Literal('mep'), Type.Literal('other')], {
      description:
        'envelope: walls, slabs, roofs, curtain walls, windows, doors, columns, beams, stairs, ' +
        'ramps, railings, plates, members, coverings (by IFC class; in a GLB or USDZ, meshes ' +
        '2 m across or more with flat faces); furniture: IfcFurnishingElement and its kin; ' +
        'mep: flow and distribution elements; other: everything else (proxies among them)',
    }),
    source_triangles: count('triangles its elements draw in the full model'),
    delivered_triangles: count('triangles its elements draw as delivered, boxes counted'),
    max_deviation_m: metres(
      'largest distance from its delivered surface to its full one (metres), measured as ' +
        'max_deviation_m is; an element drawn as boxes counts the largest face diagonal of a box',
    ),
    max_uncovered_m: metres(
      'largest distance from its full surface to its delivered one (metres); an element left out counts its own size',
    ),
    proxied_elements: count('elements drawn as the box around them (one round each of their parts that lie apart) in place of their shape'),
    left_out: Type.Array(
      Type.Object(
        {
          ifc_class: Type.String({ description: 'the IFC class, or mesh for a model that names none' }),
          elements: count('elements of this class left out'),
        },
        { additionalProperties: false },
      ),
      { description: 'elements left out, by class, most first (the budget_left_out warning names them too)' },
    ),
  },
  { additionalProperties: false, description: 'what one category of element gave up to the AR budget' },
);
/** What one category of element gave up to the AR budget (see the schema of the same name). */
export type CategoryOnWire = Static<typeof CategoryOnWire>;

/**
 * A reference to another component of the OpenAPI document, typed as the schema it names: the
 * document keeps one named schema, the type stays the schema's (how one record's schema names
 * another without copying it).
 */
export const componentRef = <T extends TSchema>(name: string, _schema: T, description?: string) =>
  Type.Unsafe<Static<T>>({ $ref: `#/components/schemas/${name}`, ...(description !== undefined && { description }) });

/** What the AR budget did to one model: the limits, the figures before and after, what it cost (OpenAPI `ArBudget`). */
export const ArBudgetOnWire = Type.Object(
  {
    within_budget: Type.Boolean({ description: 'every delivered figure is within its limit' }),
    steps: Type.Array(
      Type.Union([Type.Literal('merged'), Type.Literal('materials_merged'), Type.Literal('simplified'), Type.Literal('textures_resized')]),
      { description: 'what was done, cheapest loss first; empty when the model was delivered as read, byte for byte' },
    ),
    limits: Type.Object(
      {
        triangles: count('the triangle limit (ARSESSION_BUDGET_TRIANGLES)'),
        mesh_prims: count(),
        texture_px: count(),
        package_bytes: count(),
      },
      {
        additionalProperties: false,
        description:
          'the budget the server holds delivered files to (ARSESSION_BUDGET_*); with several models in a session, this ' +
          "model's share of it (a box's triangles for each of its elements first, the rest by upload bytes): what a device " +
          'loads together is held to the budget',
      },
    ),
    source: componentRef('ArBudgetFigures', BudgetFiguresOnWire, 'the figures of the model as read'),
    delivered: componentRef('ArBudgetFigures', BudgetFiguresOnWire, 'the figures of the delivered model'),
    max_deviation_m: metres(
      'an upper bound on the distance from any point of the delivered surface to the ' +
        "full model's (metres), over whole triangles (not at sample points), each element " +
        'against its own full surface; 0 when no vertex moved. Elements that may stray more ' +
        'than 2 cm are delivered finer, unless the triangle limit cannot be met otherwise',
    ),
    max_uncovered_m: metres(
      'an upper bound on the distance from any point of the full surface to the delivered one (metres), over whole ' +
        'triangles, each element against its own delivered surface: an element simplified away whole counts its own size',
    ),
    categories: Type.Optional(
      Type.Array(componentRef('ArBudgetCategory', CategoryOnWire), {
        description:
          'what each category of element gave up, envelope first (one row per category the model draws); ' +
          'empty when no triangle was simplified; absent for sessions made before it was reported. ' +
          'The budget takes triangles from clutter first (furniture, MEP, other: coarsened at a ' +
          'share of their own size, then drawn as boxes, then left out) and from the envelope last',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'placement, door detection and footprints are computed on the full model whatever the budget did',
  },
);
/** What the AR budget did to one model (see the schema of the same name). */
export type ArBudgetOnWire = Static<typeof ArBudgetOnWire>;

/** A point as three coordinates. */
const vec3 = (description: string) => Type.Array(Type.Number(), { minItems: 3, maxItems: 3, description });

/**
 * One part of a model over the AR budget, as the detail record and the CLI's `parts.json` state
 * it (the server's OpenAPI `ModelPart` adds its URL and its level across the session).
 */
export const PartOnWire = Type.Object(
  {
    index: count('its place in items; its file in the zip is NN.usdz (two digits)'),
    name: Type.String({
      description:
        "the storey's name (numbered when several buildings share it, e.g. 'Level 1 (2)'), " +
        "with its cell when the storey was cut ('Level 1 · 2/4')",
    }),
    storey: Type.Union([componentRef('PartStorey', PartStoreyOnWire), Type.Null()], {
      description: 'the storey it belongs to, or the container standing for one (a building, a site); null for elements no container holds',
    }),
    cell: Type.Union(
      [
        Type.Object(
          {
            index: count('which cell, from 0: cut in halves across the longer side, the lower coordinates first'),
            count: count('how many cells its storey was cut into'),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      {
        description: 'which cell of its storey it is (index from 0) when the storey was cut; null when it is whole',
      },
    ),
    bounds: Type.Object(
      { min: vec3('lowest corner'), max: vec3('highest corner') },
      {
        additionalProperties: false,
        description:
          "of what it draws, in the asset's delivered frame: a part placed as the asset's usdz_url is lies where it lies in the building",
      },
    ),
    elements: count('elements it draws'),
    triangles: count(),
    draw_calls: count(),
    usdz_bytes: count(),
    usdz_sha256: sha256Hex(),
    ar_budget: componentRef(
      'ArBudget',
      ArBudgetOnWire,
      'what the AR budget did to this part; its deviations include what the reader simplified of its elements before the ' +
        'model was split, and its categories list each one the part draws (a part its own budget left as read lists what ' +
        'the reader did alone)',
    ),
  },
  { additionalProperties: false },
);
/** One part of a model over the AR budget (see the schema of the same name). */
export type PartOnWire = Static<typeof PartOnWire>;

/** An object of any keys, each holding `value`: JSON Schema's `additionalProperties`, typed as a record. */
const mapOf = <T extends TSchema>(value: T, description?: string) =>
  Type.Unsafe<Record<string, Static<T>>>({
    type: 'object',
    additionalProperties: value,
    ...(description !== undefined && { description }),
  });

const scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

/**
 * A property's value as the file states it: text, a number, a truth value (`null` for IFC's
 * unknown), or a list of them (an enumerated or list value).
 */
export const PropertyValue = Type.Union([scalar, Type.Array(scalar)]);
/** A property's value (see the schema of the same name). */
export type PropertyValue = Static<typeof PropertyValue>;

/** Property sets by name, each its properties by name (OpenAPI `PropertySets`). */
export const PropertySets = mapOf(
  mapOf(PropertyValue),
  "property sets by name, each its properties by name: a value as the file states it (text, a number in the file's " +
    'units, a truth value, null for unknown), or a list (an enumerated, list or bounded value)',
);
/** Property sets by name (see the schema of the same name). */
export type PropertySets = Static<typeof PropertySets>;

/**
 * What a model states about one element, as the session's element records and the CLI give it:
 * an app answers "what is this?" with it when the element is tapped. Names and values are the
 * file's own; numbers are in the file's units (the server's OpenAPI `ElementRecord` adds the
 * model's `order`).
 */
export const ElementRecord = Type.Object(
  {
    id: Type.String({
      description:
        'what the delivered files name it by on its triangles (USDZ primvars:element, GLB element table): its IFC ' +
        'GlobalId; for a GLB its node pointer (/nodes/<index>); for a USDZ its prim path',
    }),
    global_id: nullable(Type.String(), 'its IFC GlobalId; null for a GLB or USDZ element'),
    ifc_class: nullable(Type.String(), 'its IFC class (IfcDoor, IfcWallStandardCase, …); null for a GLB or USDZ element'),
    name: Type.String({
      description:
        "its name in the model (a glTF node's, or its mesh's when the node has none; a USD prim's); empty when the file names neither",
    }),
    type: nullable(
      Type.Object(
        {
          ifc_class: Type.String({ description: "the type's IFC class (IfcDoorType, IfcWallType, …)" }),
          name: Type.String(),
          property_sets: componentRef('PropertySets', PropertySets, 'the property sets stated on the type'),
        },
        { additionalProperties: false },
      ),
      'its type (IfcRelDefinesByType), with the property sets stated on the type; null when it has none',
    ),
    storey: nullable(Type.String(), 'the storey (or other container) that holds it; null when none does'),
    materials: Type.Array(Type.String(), { description: "its materials' names (a material, its layers or constituents)" }),
    property_sets: componentRef(
      'PropertySets',
      PropertySets,
      "its property sets by name, each its properties by name; a GLB's are extras and mesh extras, a USDZ's " +
        'customData and assetInfo, nested keys joined with dots (up to 256 a set; lists past 256 items left out)',
    ),
    quantities: mapOf(
      mapOf(Type.Number()),
      "its quantity sets (IfcElementQuantity) by name, each its quantities by name, in the file's units",
    ),
  },
  { additionalProperties: false },
);
/** What a model states about one element (see the schema of the same name). */
export type ElementRecord = Static<typeof ElementRecord>;
