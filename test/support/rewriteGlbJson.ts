/**
 * A GLB whose JSON chunk `edit` has changed, its binary chunk byte for byte the same: how a file
 * that lies about its own layout is made from an honest one.
 */
export function rewriteGlbJson(glb: Uint8Array, edit: (json: any) => void): Uint8Array {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json: unknown = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  edit(json);
  let text = JSON.stringify(json);
  while (text.length % 4) text += ' ';
  const body = new TextEncoder().encode(text),
    rest = glb.subarray(20 + jsonLength);
  const out = new Uint8Array(20 + body.length + rest.length);
  out.set(glb.subarray(0, 20));
  const o = new DataView(out.buffer);
  o.setUint32(8, out.length, true);
  o.setUint32(12, body.length, true);
  out.set(body, 20);
  out.set(rest, 20 + body.length);
  return out;
}
