import { IFCCONVERSIONBASEDUNIT, IFCPROJECT, IFCSIUNIT, type IfcAPI } from 'web-ifc';

const PREFIX: Record<string, number> = {
  EXA: 1e18, PETA: 1e15, TERA: 1e12, GIGA: 1e9, MEGA: 1e6, KILO: 1e3, HECTO: 1e2, DECA: 1e1,
  DECI: 1e-1, CENTI: 1e-2, MILLI: 1e-3, MICRO: 1e-6, NANO: 1e-9, PICO: 1e-12, FEMTO: 1e-15, ATTO: 1e-18,
};

type Ref = { value: number };
type Enum = { value: string };

/**
 * Metres per length unit of an open IFC model (0.001 for millimetres, 0.3048 for feet), from the
 * project's unit assignment. web-ifc scales meshes itself but not attributes such as
 * `OverallWidth` or placements, which need this.
 */
export function ifcLengthUnit(api: IfcAPI, model: number): number {
  try {
    const projects = api.GetLineIDsWithType(model, IFCPROJECT);
    if (projects.size() === 0) return 1;
    const project = api.GetLine(model, projects.get(0)) as { UnitsInContext?: Ref };
    if (!project.UnitsInContext) return 1;
    const assignment = api.GetLine(model, project.UnitsInContext.value) as { Units?: Ref[] };
    for (const handle of assignment.Units ?? []) {
      const unit = api.GetLine(model, handle.value) as { type: number; UnitType?: Enum; Prefix?: Enum; ConversionFactor?: Ref };
      if (unit.UnitType?.value !== 'LENGTHUNIT') continue;
      if (unit.type === IFCSIUNIT) return unit.Prefix ? PREFIX[unit.Prefix.value] ?? 1 : 1;
      if (unit.type === IFCCONVERSIONBASEDUNIT && unit.ConversionFactor) {
        const measure = api.GetLine(model, unit.ConversionFactor.value) as { ValueComponent?: { value: number }; UnitComponent?: Ref };
        const base = measure.UnitComponent ? (api.GetLine(model, measure.UnitComponent.value) as { Prefix?: Enum }) : undefined;
        return (measure.ValueComponent?.value ?? 1) * (base?.Prefix ? PREFIX[base.Prefix.value] ?? 1 : 1);
      }
    }
  } catch {
    // A model without a readable unit assignment is taken to be in metres, as IFC's default.
  }
  return 1;
}
