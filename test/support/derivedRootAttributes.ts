/**
 * An IFC file with the Name and Description of every IfcRoot instance written `*` (STEP's
 * "derived" marker), as IFC2X3 exports of Renga Architecture write them. Only those two attributes
 * change; the geometry is the file's own.
 */
export function derivedRootAttributes(ifc: Uint8Array): Uint8Array {
  const text = Buffer.from(ifc).toString('latin1');
  // IfcRoot opens with GlobalId (a 22-character string) and OwnerHistory; Name and Description follow.
  const root =
    /^(#\d+\s*=\s*IFC\w+\(\s*'[0-9A-Za-z_$]{22}'\s*,\s*(?:#\d+|\$|\*)\s*,)\s*(?:'(?:[^']|'')*'|\$|\*)\s*,\s*(?:'(?:[^']|'')*'|\$|\*)\s*,/gm;
  let count = 0;
  const starred = text.replace(root, (_, head: string) => {
    count++;
    return `${head}*,*,`;
  });
  if (count === 0) throw new Error('derivedRootAttributes: no IfcRoot instance found');
  return new Uint8Array(Buffer.from(starred, 'latin1'));
}
