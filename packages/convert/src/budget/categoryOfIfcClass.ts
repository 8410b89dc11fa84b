import type { BudgetCategory } from './BudgetCategory.js';

/**
 * IFC classes (and their `…StandardCase` / `…ElementedCase` subtypes) that make up the building:
 * walls, slabs, roofs, openings, structure, stairs and railings, the few other building elements
 * that carry its outline, and the long elements of infrastructure that are its shape (rails, courses,
 * pavements, kerbs, earthworks: a 5 km rail must never be taken for clutter). Sleepers and other
 * track elements are not: thousands of them, each the size of a box.
 */
const ENVELOPE_CLASSES = new Set([
  'IFCWALL',
  'IFCCURTAINWALL',
  'IFCSLAB',
  'IFCROOF',
  'IFCWINDOW',
  'IFCDOOR',
  'IFCCOLUMN',
  'IFCBEAM',
  'IFCSTAIR',
  'IFCSTAIRFLIGHT',
  'IFCRAMP',
  'IFCRAMPFLIGHT',
  'IFCRAILING',
  'IFCPLATE',
  'IFCMEMBER',
  'IFCCOVERING',
  'IFCFOOTING',
  'IFCPILE',
  'IFCCHIMNEY',
  'IFCSHADINGDEVICE',
  'IFCRAIL',
  'IFCCOURSE',
  'IFCPAVEMENT',
  'IFCKERB',
  'IFCEARTHWORKSFILL',
  'IFCBEARING',
  'IFCDEEPFOUNDATION',
  'IFCCAISSONFOUNDATION',
  'IFCREINFORCEDSOIL',
]);

const FURNITURE_CLASSES = new Set(['IFCFURNISHINGELEMENT', 'IFCFURNITURE', 'IFCSYSTEMFURNITUREELEMENT']);

/**
 * Prefixes of building-services classes: IFC2X3's flow and distribution supertypes and IFC4's
 * subtypes of them (IfcPipeSegment, IfcLightFixture, IfcSanitaryTerminal, …).
 */
const MEP_PREFIXES = [
  'IFCFLOW',
  'IFCDISTRIBUTION',
  'IFCENERGYCONVERSION',
  'IFCPIPE',
  'IFCDUCT',
  'IFCCABLE',
  'IFCSANITARY',
  'IFCLIGHTFIXTURE',
  'IFCLAMP',
  'IFCAIRTERMINAL',
  'IFCAIRTOAIR',
  'IFCVALVE',
  'IFCPUMP',
  'IFCFAN',
  'IFCBOILER',
  'IFCCHILLER',
  'IFCCOIL',
  'IFCCOMPRESSOR',
  'IFCCONDENSER',
  'IFCCOOLING',
  'IFCDAMPER',
  'IFCELECTRIC',
  'IFCOUTLET',
  'IFCSWITCHING',
  'IFCALARM',
  'IFCSENSOR',
  'IFCACTUATOR',
  'IFCCONTROLLER',
  'IFCFIRESUPPRESSION',
  'IFCSTACKTERMINAL',
  'IFCWASTETERMINAL',
  'IFCTANK',
  'IFCFILTER',
  'IFCJUNCTIONBOX',
  'IFCPROTECTIVEDEVICE',
  'IFCTRANSFORMER',
  'IFCUNITARYEQUIPMENT',
  'IFCSPACEHEATER',
  'IFCCOMMUNICATIONSAPPLIANCE',
  'IFCAUDIOVISUALAPPLIANCE',
  'IFCMOTOR',
  'IFCHEATEXCHANGER',
  'IFCHUMIDIFIER',
  'IFCEVAPORA',
  'IFCBURNER',
  'IFCENGINE',
  'IFCTUBEBUNDLE',
  'IFCUNITARYCONTROL',
  'IFCMEDICALDEVICE',
];

/**
 * An IFC class name as the budget's tables hold it: in capitals, a `…StandardCase` or
 * `…ElementedCase` subtype as its supertype.
 *
 * @example
 * ```ts
 * baseIfcClass('IfcWallStandardCase'); // → 'IFCWALL'
 * ```
 */
export function baseIfcClass(ifcClass: string): string {
  return ifcClass.toUpperCase().replace(/(STANDARDCASE|ELEMENTEDCASE)$/, '');
}

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
  const name = baseIfcClass(ifcClass);
  if (ENVELOPE_CLASSES.has(name)) return 'envelope';
  if (FURNITURE_CLASSES.has(name)) return 'furniture';
  if (MEP_PREFIXES.some((p) => name.startsWith(p))) return 'mep';
  return 'other';
}
