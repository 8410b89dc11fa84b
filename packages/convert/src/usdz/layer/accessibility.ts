import type { UsdProperty } from '@arsession/usd';
import { isStoreyNode } from '../../scene/SceneLevel.js';

/** What a screen reader says of a prim: OpenUSD's `AccessibilityAPI` triplet, less the priority. */
export interface AccessibilityText {
  /** A short name: the element's or storey's name as the file states it. */
  label: string;
  /** What it is: its class in words, its storey, a storey's elevation. */
  description: string;
}

/** The instance of the multiple-apply schema: `default`, the one every runtime reads. */
export const ACCESSIBILITY_SCHEMA = 'AccessibilityAPI:default';

/**
 * What VoiceOver (visionOS, RealityKit) should say of a node, from the identity a reader gave it:
 * an element by its name, class and storey; a container (a storey or a merged storey group; a
 * site, building or space) by its name, class and elevation. Undefined for nodes with no identity (a GLB's nodes, a spatial cell).
 *
 * @example
 * ```ts
 * accessibilityOf({ ifcClass: 'IfcWallStandardCase', name: 'Basic Wall', storey: 'Level 1' });
 * // → { label: 'Basic Wall', description: 'Wall standard case on Level 1' }
 * ```
 */
export function accessibilityOf(metadata: Readonly<Record<string, string>>): AccessibilityText | undefined {
  const { ifcClass, name, storey, storeyClass, elevation } = metadata;
  const at = elevation === undefined ? '' : ` at elevation ${elevation} m`;
  // A merged storey group: the storey's name, and what stands for it when it is not a storey.
  if (ifcClass === undefined) return storey ? { label: storey, description: `${containerInWords(storeyClass)}${at}` } : undefined;
  const kind = classInWords(ifcClass);
  if (isStoreyNode(metadata)) return { label: name || kind, description: `${containerInWords(ifcClass)}${at}` };
  return { label: name || kind, description: storey === undefined ? kind : `${kind} on ${storey || 'a storey without a name'}` };
}

/** A container's class in words, a storey's as `Storey`. */
function containerInWords(ifcClass: string | undefined): string {
  return ifcClass === undefined || /^ifcbuildingstorey$/i.test(ifcClass) ? 'Storey' : classInWords(ifcClass);
}

/** The schema's attributes for `text`, in the order USD lists properties (sorted). */
export function accessibilityProperties(text: AccessibilityText): UsdProperty[] {
  const string = (name: string, value: string): UsdProperty => ({
    kind: 'attribute',
    name,
    type: 'string',
    value: { type: 'string', value },
  });
  return [
    string('accessibility:default:description', text.description),
    string('accessibility:default:label', text.label),
    { kind: 'attribute', name: 'accessibility:default:priority', type: 'token', value: { type: 'token', value: 'standard' } },
  ];
}

/** `IfcWallStandardCase` → `Wall standard case`: an IFC class as a person would say it. */
export function classInWords(ifcClass: string): string {
  const bare = ifcClass.replace(/^ifc/i, '');
  // Upper-case files (IFCWALL) carry no word breaks: the class is then said whole.
  if (bare === bare.toUpperCase()) return bare.charAt(0) + bare.slice(1).toLowerCase();
  const words = bare.split(/(?<=[a-z0-9])(?=[A-Z])/).map((w, i) => (i === 0 ? w : w.toLowerCase()));
  return words.join(' ');
}
