import type { SceneMesh } from '../scene/SceneData.js';
import { pointBounds } from '../scene/pointBounds.js';

/**
 * What part of a building an element is, as far as the AR budget cares: the order in which it
 * gives up triangles. `envelope` is what makes the building itself (walls, slabs, roofs, openings,
 * structure, stairs, railings) and keeps its shape to the last; `furniture`, `mep` and `other`
 * are what a person misses least, coarsened first.
 */
export type BudgetCategory = 'envelope' | 'furniture' | 'mep' | 'other';

/** Every {@link BudgetCategory}, envelope first: the order reports list them in. */
export const BUDGET_CATEGORIES: readonly BudgetCategory[] = ['envelope', 'furniture', 'mep', 'other'];

/**
 * IFC classes (and their `…StandardCase` / `…ElementedCase` subtypes) that make up the building:
 * walls, slabs, roofs, openings, structure, stairs and railings, the few other building elements
 * that carry its outline, and the long elements of infrastructure that are its shape (rails, courses,
 * pavements, kerbs, earthworks: a 5 km rail must never be taken for clutter). Sleepers and other
 * track elements are not: thousands of them, each the size of a box.
 */
const ENVELOPE_CLASSES = new Set([
  'IFCWALL', 'IFCCURTAINWALL', 'IFCSLAB', 'IFCROOF', 'IFCWINDOW', 'IFCDOOR', 'IFCCOLUMN', 'IFCBEAM', 'IFCSTAIR',
  'IFCSTAIRFLIGHT', 'IFCRAMP', 'IFCRAMPFLIGHT', 'IFCRAILING', 'IFCPLATE', 'IFCMEMBER', 'IFCCOVERING', 'IFCFOOTING',
  'IFCPILE', 'IFCCHIMNEY', 'IFCSHADINGDEVICE', 'IFCRAIL', 'IFCCOURSE', 'IFCPAVEMENT', 'IFCKERB', 'IFCEARTHWORKSFILL',
  'IFCBEARING', 'IFCDEEPFOUNDATION', 'IFCCAISSONFOUNDATION', 'IFCREINFORCEDSOIL',
]);

const FURNITURE_CLASSES = new Set(['IFCFURNISHINGELEMENT', 'IFCFURNITURE', 'IFCSYSTEMFURNITUREELEMENT']);

/**
 * Prefixes of building-services classes: IFC2X3's flow and distribution supertypes and IFC4's
 * subtypes of them (IfcPipeSegment, IfcLightFixture, IfcSanitaryTerminal, …).
 */
const MEP_PREFIXES = [
  'IFCFLOW', 'IFCDISTRIBUTION', 'IFCENERGYCONVERSION', 'IFCPIPE', 'IFCDUCT', 'IFCCABLE', 'IFCSANITARY', 'IFCLIGHTFIXTURE', 'IFCLAMP',
  'IFCAIRTERMINAL', 'IFCAIRTOAIR', 'IFCVALVE', 'IFCPUMP', 'IFCFAN', 'IFCBOILER', 'IFCCHILLER', 'IFCCOIL', 'IFCCOMPRESSOR', 'IFCCONDENSER',
  'IFCCOOLING', 'IFCDAMPER', 'IFCELECTRIC', 'IFCOUTLET', 'IFCSWITCHING', 'IFCALARM', 'IFCSENSOR', 'IFCACTUATOR', 'IFCCONTROLLER',
  'IFCFIRESUPPRESSION', 'IFCSTACKTERMINAL', 'IFCWASTETERMINAL', 'IFCTANK', 'IFCFILTER', 'IFCJUNCTIONBOX', 'IFCPROTECTIVEDEVICE',
  'IFCTRANSFORMER', 'IFCUNITARYEQUIPMENT', 'IFCSPACEHEATER', 'IFCCOMMUNICATIONSAPPLIANCE', 'IFCAUDIOVISUALAPPLIANCE', 'IFCMOTOR',
  'IFCHEATEXCHANGER', 'IFCHUMIDIFIER', 'IFCEVAPORA', 'IFCBURNER', 'IFCENGINE', 'IFCTUBEBUNDLE', 'IFCUNITARYCONTROL', 'IFCMEDICALDEVICE',
];

/**
 * The budget category of an IFC class name, in any letter case (web-ifc names classes in capitals,
 * the model's metadata as written). Classes nothing here names — proxies, fasteners, furnishings
 * of infrastructure — are `other`.
 *
 * @example
 * ```ts
 * categoryOfIfcClass('IfcWallStandardCase'); // → 'envelope'
 * categoryOfIfcClass('IFCFURNISHINGELEMENT'); // → 'furniture'
 * categoryOfIfcClass(undefined); // → 'other'
 * ```
 */
export function categoryOfIfcClass(ifcClass: string | undefined): BudgetCategory {
  if (!ifcClass) return 'other';
  const name = ifcClass.toUpperCase().replace(/(STANDARDCASE|ELEMENTEDCASE)$/, '');
  if (ENVELOPE_CLASSES.has(name)) return 'envelope';
  if (FURNITURE_CLASSES.has(name)) return 'furniture';
  if (MEP_PREFIXES.some((p) => name.startsWith(p))) return 'mep';
  return 'other';
}

/** Options of {@link categoryOfShape}. */
export interface CategoryOfShapeOptions {
  /** Diagonal (m) from which a flat-faced mesh is taken for part of the building. */
  minEnvelopeSize: number;
  /** Share of its area a mesh must have in a few planes' directions to count as flat-faced. */
  minFlatShare: number;
}

/** Defaults of {@link categoryOfShape}: two metres, nine tenths of the area. */
export const CATEGORY_OF_SHAPE_DEFAULTS: Readonly<CategoryOfShapeOptions> = { minEnvelopeSize: 2, minFlatShare: 0.9 };

/** Face directions a flat-faced mesh has most of its area in: a box's six, and a few more. */
const FLAT_DIRECTIONS = 8;

/**
 * The budget category of a mesh that names no IFC class (a GLB, a USDZ), from its shape: one at
 * least {@link CategoryOfShapeOptions.minEnvelopeSize} across (in metres, at `scale`) with most of
 * its area facing a few directions (walls, floors, roofs, panes) is `envelope`; anything else is
 * `other`, coarsened first.
 *
 * @example
 * ```ts
 * categoryOfShape(wallMesh, 1); // → 'envelope'
 * categoryOfShape(chairMesh, 1); // → 'other'
 * ```
 */
export function categoryOfShape(mesh: Pick<SceneMesh, 'positions' | 'indices'>, scale: number, options: Partial<CategoryOfShapeOptions> = {}): BudgetCategory {
  const opts = { ...CATEGORY_OF_SHAPE_DEFAULTS, ...options };
  const p = mesh.positions, idx = mesh.indices;
  const { min, max } = pointBounds(p);
  if (Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) * scale < opts.minEnvelopeSize) return 'other';
  // Area by facing direction, quantised to about 3° (both sides of a plane are one direction).
  const byDirection = new Map<number, number>();
  let total = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t]! * 3, b = idx[t + 1]! * 3, c = idx[t + 2]! * 3;
    const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!, vy = p[c + 1]! - p[a + 1]!, vz = p[c + 2]! - p[a + 2]!;
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const area = Math.hypot(nx, ny, nz);
    if (!(area > 0)) continue;
    const sign = nx < 0 || (nx === 0 && (ny < 0 || (ny === 0 && nz < 0))) ? -1 / area : 1 / area;
    nx *= sign;
    ny *= sign;
    nz *= sign;
    const key = Math.round((nx + 1) * 20) * 10_000 + Math.round((ny + 1) * 20) * 100 + Math.round((nz + 1) * 20);
    byDirection.set(key, (byDirection.get(key) ?? 0) + area);
    total += area;
  }
  if (!(total > 0)) return 'other';
  const largest = [...byDirection.values()].sort((x, y) => y - x).slice(0, FLAT_DIRECTIONS);
  return largest.reduce((n, a) => n + a, 0) >= opts.minFlatShare * total ? 'envelope' : 'other';
}
