import { readStepHeader } from './step/readStepEntity.js';
import { stepText } from './step/StepValue.js';

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
  const records = readStepHeader(bytes);
  const schemas = records.find((r) => r.type === 'FILE_SCHEMA')?.attributes[0];
  const schema = schemas?.kind === 'list' ? stepText(schemas.items[0]) : undefined;
  // FILE_NAME(name, time_stamp, (author), (organization), preprocessor_version, originating_system, authorization)
  const fileName = records.find((r) => r.type === 'FILE_NAME');
  const originatingSystem = stepText(fileName?.attributes[5]);
  return { schema: schema?.trim().toUpperCase() || undefined, originatingSystem: originatingSystem || undefined };
}
