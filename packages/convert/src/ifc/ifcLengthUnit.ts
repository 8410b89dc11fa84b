import type { StepFile } from './step/StepFile.js';
import { stepEnum, stepNumber, stepReferences } from './step/StepValue.js';

const PREFIX: Record<string, number> = {
  EXA: 1e18,
  PETA: 1e15,
  TERA: 1e12,
  GIGA: 1e9,
  MEGA: 1e6,
  KILO: 1e3,
  HECTO: 1e2,
  DECA: 1e1,
  DECI: 1e-1,
  CENTI: 1e-2,
  MILLI: 1e-3,
  MICRO: 1e-6,
  NANO: 1e-9,
  PICO: 1e-12,
  FEMTO: 1e-15,
  ATTO: 1e-18,
};

// Attribute positions (0-based), the same in IFC2X3, IFC4 and IFC4X3.
const PROJECT_UNITS_IN_CONTEXT = 8;
const SI_UNIT = { unitType: 1, prefix: 2 };
const CONVERSION_BASED_UNIT = { unitType: 1, conversionFactor: 3 };
const MEASURE_WITH_UNIT = { valueComponent: 0, unitComponent: 1 };

/**
 * Metres per length unit of an IFC model (0.001 for millimetres, 0.3048 for feet), from its
 * project's unit assignment, read from the STEP bytes. web-ifc scales meshes itself but not
 * attributes such as `OverallWidth` or placements, which need this. IFC2X3 writes the derived
 * `Dimensions` of every unit as `*`, which `GetLine` mis-reads; the bytes say it plainly. A model
 * without a readable length unit is taken to be in metres, IFC's default.
 *
 * @example
 * ```ts
 * ifcLengthUnit(file, projectId); // → 0.001 for `IFCSIUNIT(*,.LENGTHUNIT.,.MILLI.,.METRE.)`
 * ```
 */
export function ifcLengthUnit(file: StepFile, project: number | undefined): number {
  if (project === undefined) return 1;
  const assignment = stepReferences(file.attribute(project, PROJECT_UNITS_IN_CONTEXT))[0];
  if (assignment === undefined) return 1;
  for (const id of stepReferences(file.attribute(assignment, 0))) {
    const unit = file.entity(id);
    if (!unit) continue;
    if (unit.type === 'IFCSIUNIT' && stepEnum(unit.attributes[SI_UNIT.unitType]) === 'LENGTHUNIT') {
      return prefixScale(stepEnum(unit.attributes[SI_UNIT.prefix]));
    }
    if (unit.type === 'IFCCONVERSIONBASEDUNIT' && stepEnum(unit.attributes[CONVERSION_BASED_UNIT.unitType]) === 'LENGTHUNIT') {
      const factor = stepReferences(unit.attributes[CONVERSION_BASED_UNIT.conversionFactor])[0];
      const measure = factor === undefined ? undefined : file.entity(factor);
      const value = stepNumber(measure?.attributes[MEASURE_WITH_UNIT.valueComponent]);
      const base = stepReferences(measure?.attributes[MEASURE_WITH_UNIT.unitComponent])[0];
      const scale = (value ?? 1) * (base === undefined ? 1 : prefixScale(stepEnum(file.attribute(base, SI_UNIT.prefix))));
      return Number.isFinite(scale) && scale > 0 ? scale : 1;
    }
  }
  return 1;
}

function prefixScale(prefix: string | undefined): number {
  return prefix === undefined ? 1 : (PREFIX[prefix] ?? 1);
}
