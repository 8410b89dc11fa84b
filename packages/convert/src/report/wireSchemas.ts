// The wire records the converter makes, as TypeBox schemas: each the one declaration its
// TypeScript type (Static) and the server's OpenAPI schema come from. A module of its own, behind
// the `@arsession/convert/schemas` subpath: TypeBox costs ~50 ms to load, which a command-line
// conversion never pays (the record functions import these types only).
import { type Static, Type } from '@sinclair/typebox';

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
      description: 'its Xform in the USDZ (/Model/Level_1); a RealityKit entity is named after the last component',
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
