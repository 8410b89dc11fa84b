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
  const system = fileName ? stepArguments(fileName)[5] : undefined;
  const originatingSystem = system && /^'.*'$/s.test(system) ? system.slice(1, -1).replace(/''/g, "'") : undefined;
  return { schema: schema?.toUpperCase(), originatingSystem: originatingSystem || undefined };
}

/** Splits a STEP argument list at its top-level commas, respecting quoted strings and nested lists. */
function stepArguments(list: string): string[] {
  const args: string[] = [];
  let depth = 0, quoted = false, start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === "'") quoted = !quoted; // a doubled '' toggles twice: still inside the string
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')') depth--;
    else if (!quoted && depth === 0 && c === ',') {
      args.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  args.push(list.slice(start).trim());
  return args;
}
