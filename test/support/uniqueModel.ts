import { readFileSync } from 'node:fs';

// The server reuses the conversion of bytes it has seen (a content-addressed cache), so a test that
// needs a request to reach a conversion worker sends bytes no earlier request sent. These helpers
// change a model's bytes without changing what it shows.

/**
 * A GLB file with `nonce` written into its JSON (`asset.extras.nonce`): the same scene, new bytes.
 *
 * @example
 * ```ts
 * const bytes = uniqueGlb(corpusPath('glb', 'Box.glb'), randomUUID());
 * ```
 */
export function uniqueGlb(path: string, nonce: string): Uint8Array {
  const glb = readFileSync(path);
  const jsonLength = glb.readUInt32LE(12);
  if (glb.readUInt32LE(0) !== 0x46546c67 || glb.readUInt32LE(16) !== 0x4e4f534a)
    throw new Error(`${path} is not a GLB with a leading JSON chunk`);
  const json = JSON.parse(glb.subarray(20, 20 + jsonLength).toString('utf8')) as { asset: { extras?: Record<string, unknown> } };
  json.asset.extras = { ...json.asset.extras, nonce };
  let text = JSON.stringify(json);
  while (Buffer.byteLength(text) % 4) text += ' ';
  const body = Buffer.from(text, 'utf8');
  const rest = glb.subarray(20 + jsonLength); // the BIN chunk, header included
  const out = Buffer.alloc(20 + body.length + rest.length);
  out.writeUInt32LE(0x46546c67, 0);
  out.writeUInt32LE(2, 4);
  out.writeUInt32LE(out.length, 8);
  out.writeUInt32LE(body.length, 12);
  out.writeUInt32LE(0x4e4f534a, 16);
  body.copy(out, 20);
  rest.copy(out, 20 + body.length);
  return new Uint8Array(out);
}

/** An IFC file with `nonce` in its header's FILE_NAME: the same building, new bytes. */
export function uniqueIfc(path: string, nonce: string): Uint8Array {
  const text = readFileSync(path, 'latin1');
  const at = text.indexOf("FILE_NAME('");
  if (at < 0) throw new Error(`${path} has no FILE_NAME header`);
  const marked = `${text.slice(0, at + 11)}${nonce.replace(/[^A-Za-z0-9-]/g, '')}-${text.slice(at + 11)}`;
  return new Uint8Array(Buffer.from(marked, 'latin1'));
}
