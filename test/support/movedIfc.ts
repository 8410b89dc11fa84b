import { corpusBytes } from './corpus.js';

/**
 * IfcOpenHouse (millimetres) with its site moved to (5·10⁵ m, 6·10⁵ m) in IFC coordinates: a
 * georeferenced building, as survey-placed models are, made from a corpus file.
 */
export function farAwayIfcOpenHouse(): Uint8Array {
  const original = new TextDecoder('latin1').decode(corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc'));
  // IfcSite's 6th attribute is its ObjectPlacement; moving its origin shifts the whole building.
  const site = /=IFCSITE\('[^']*',[^,]*,[^,]*,[^,]*,[^,]*,#(\d+)/.exec(original)!;
  const placement = new RegExp(`#${site[1]}=IFCLOCALPLACEMENT\\([^,]*,#(\\d+)\\)`).exec(original)!;
  const axis = new RegExp(`#${placement[1]}=IFCAXIS2PLACEMENT3D\\(#(\\d+)`).exec(original)!;
  const point = new RegExp(`#${axis[1]}=IFCCARTESIANPOINT\\(\\([^)]*\\)\\)`);
  if (!point.test(original)) throw new Error('IfcOpenHouse: the site placement point was not found');
  return new TextEncoder().encode(original.replace(point, `#${axis[1]}=IFCCARTESIANPOINT((500000000.,600000000.,0.))`));
}
