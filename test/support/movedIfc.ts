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

/**
 * wall_door_columnt_rgb4x3 (Revit) with `copies` more of its metal-clad column (a mapped item: one
 * shared geometry) standing in a row: a model whose repeated geometry is most of what it draws.
 */
export function repeatedColumnsIfc(copies: number): Uint8Array {
  const original = new TextDecoder('latin1').decode(corpusBytes('ifc', 'wall_door_columnt_rgb4x3.ifc'));
  // #3369: the column's IfcProductDefinitionShape (its mapped representation); #33: the storey's placement.
  if (!original.includes('#3369=IFCPRODUCTDEFINITIONSHAPE(') || !original.includes('#3373=IFCCOLUMN('))
    throw new Error('wall_door_columnt_rgb4x3: the column was not found');
  let next = Math.max(...[...original.matchAll(/^#(\d+)=/gm)].map((m) => Number(m[1]))) + 1;
  const lines: string[] = [];
  const columns: number[] = [];
  for (let i = 0; i < copies; i++) {
    const point = next++,
      axis = next++,
      placement = next++,
      column = next++;
    lines.push(
      `#${point}=IFCCARTESIANPOINT((${(-18 + 4 * (i + 1)).toFixed(1)},30.,0.));`,
      `#${axis}=IFCAXIS2PLACEMENT3D(#${point},$,$);`,
      `#${placement}=IFCLOCALPLACEMENT(#33,#${axis});`,
      `#${column}=IFCCOLUMN('${ifcGuid(i)}',#6,'Metal Clad Column copy ${i + 1}',$,$,#${placement},#3369,$,.COLUMN.);`,
    );
    columns.push(column);
  }
  lines.push(`#${next}=IFCRELCONTAINEDINSPATIALSTRUCTURE('${ifcGuid(copies)}',#6,$,$,(${columns.map((c) => `#${c}`).join(',')}),#34);`);
  return new TextEncoder().encode(original.replace(/\nENDSEC;\s*\nEND-ISO-10303-21;/, `\n${lines.join('\n')}\nENDSEC;\nEND-ISO-10303-21;`));
}

/** A 22-character IFC GlobalId, distinct for each `n`. */
function ifcGuid(n: number): string {
  return `3copy${String(n).padStart(6, '0')}xxxxxxxxxxx`.slice(0, 22);
}
