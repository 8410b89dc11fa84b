/** What the STEP header of an IFC file says, read without parsing the body. */
export interface IfcHeader {
  /** Schema identifier as written, e.g. `IFC2X3`, `IFC4`, `IFC4X3_ADD2`. */
  schema: string | undefined;
  /** `FILE_NAME` originating system, when present. */
  originatingSystem: string | undefined;
}

/**
 * Reads the schema and authoring tool from the `HEADER;` section of an IFC (STEP) file.
 *
 * @example
 * ```ts
 * readIfcHeader(readFileSync('duplex.ifc')).schema; // → 'IFC2X3'
 * ```
 */
export function readIfcHeader(bytes: Uint8Array): IfcHeader {
  // The header is at the top; 64 KiB covers every exporter we have seen, including long FILE_DESCRIPTIONs.
  const text = new TextDecoder('latin1').decode(bytes.subarray(0, 65536));
  const end = text.indexOf('ENDSEC;');
  const header = end >= 0 ? text.slice(0, end) : text;
  const schema = /FILE_SCHEMA\s*\(\s*\(\s*'([^']*)'/i.exec(header)?.[1];
  // FILE_NAME(name, time_stamp, (author), (organization), preprocessor_version, originating_system, authorization)
  const fileName = /FILE_NAME\s*\(([\s\S]*?)\)\s*;/i.exec(header)?.[1];
  const strings = fileName ? [...fileName.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!) : [];
  return { schema: schema?.toUpperCase(), originatingSystem: strings.length >= 2 ? strings[strings.length - 2] : undefined };
}
