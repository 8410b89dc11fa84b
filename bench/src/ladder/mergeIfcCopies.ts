import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** Options of {@link mergeIfcCopies}. */
export interface MergeIfcCopiesOptions {
  /** Copies of the model in the merged project. */
  copies: number;
  /** Distance between neighbouring copies' sites, in the file's own length unit. */
  spacing: number;
  /** Folder the merged file is written to (default: the OS temp folder, never the repository). */
  dir?: string;
}

/**
 * Merges `copies` copies of one IFC into one project, as IfcOpenShell's merge-projects recipe
 * does with a federation: each copy's entity ids shifted past the last copy's, its GlobalIds made
 * unique, its site moved to its own place on a square grid (`spacing` apart), and its project
 * folded into the first copy's so the file has one `IfcProject`. Real BIM content at 2, 4, 8×
 * the size, for the scale ladder. Returns the written file's path.
 *
 * @example
 * ```ts
 * const path = mergeIfcCopies('restaurant.ifc', { copies: 4, spacing: 300 }); // 111 MB, 4 sites
 * ```
 */
export function mergeIfcCopies(source: string, options: MergeIfcCopiesOptions): string {
  const text = readFileSync(source, 'latin1');
  const start = text.indexOf('DATA;') + 'DATA;'.length;
  const end = text.indexOf('ENDSEC;', start);
  if (start < 'DATA;'.length || end < 0) throw new Error(`${source}: no DATA section`);
  const data = text.slice(start, end);
  let maxId = 0;
  for (const m of data.matchAll(/#(\d+)/g)) maxId = Math.max(maxId, Number(m[1]));
  const project = /#(\d+)\s*=\s*IFCPROJECT\s*\(/i.exec(data);
  if (!project) throw new Error(`${source}: no IfcProject`);
  const sitePlacements = [...data.matchAll(/=\s*IFCSITE\s*\(\s*'[^']*'\s*,[^,]*,[^,]*,[^,]*,[^,]*,\s*#(\d+)/gi)].map((m) => Number(m[1]));
  const columns = Math.ceil(Math.sqrt(options.copies));
  const seen = new Set<string>();
  const parts = [text.slice(0, start)];
  for (let k = 0; k < options.copies; k++) {
    const shift = k * maxId;
    const renumbered = k === 0 ? data : data.replace(/#(\d+)/g, (_, id: string) => `#${Number(id) + shift}`);
    const lines = renumbered.split(/(?<=;)\r?\n/);
    const out: string[] = [];
    const dx = (k % columns) * options.spacing,
      dy = Math.floor(k / columns) * options.spacing;
    // Each copy's own free ids for the placement that moves its site: past every copy's range.
    let extra = options.copies * maxId + k * (2 * sitePlacements.length + 1) * 2;
    for (const line of lines) {
      // A rooted entity: a compressed GUID (first digit 0–3: 128 bits) before its owner history.
      const entity = /^\s*#(\d+)\s*=\s*([A-Z0-9_]+)\s*\(\s*'([0-3][0-9A-Za-z_$]{21})'\s*,\s*(?:#\d+|\$)\s*,/i.exec(line);
      if (k > 0 && entity && Number(entity[1]) === Number(project[1]) + shift) continue;
      let edited = line;
      if (k > 0) edited = edited.replace(new RegExp(`#${Number(project[1]) + shift}(?!\\d)`, 'g'), `#${project[1]}`);
      if (entity && k > 0) edited = edited.replace(entity[3]!, uniqueGlobalId(entity[3]!, k));
      if (entity) {
        const id = k > 0 ? uniqueGlobalId(entity[3]!, k) : entity[3]!;
        if (seen.has(id)) throw new Error(`${source}: GlobalId ${id} would repeat in copy ${k}`);
        seen.add(id);
      }
      const placement = /^\s*#(\d+)\s*=\s*IFCLOCALPLACEMENT\s*\(\s*(\$|#\d+)\s*,/i.exec(edited);
      if (placement && (dx !== 0 || dy !== 0) && sitePlacements.includes(Number(placement[1]) - shift)) {
        // The site's placement is made relative to a new one that moves it by (dx, dy).
        const point = ++extra,
          axis = ++extra,
          mover = ++extra;
        out.push(
          `\n#${point}=IFCCARTESIANPOINT((${dx.toFixed(1)},${dy.toFixed(1)},0.));`,
          `\n#${axis}=IFCAXIS2PLACEMENT3D(#${point},$,$);`,
          `\n#${mover}=IFCLOCALPLACEMENT(${placement[2]},#${axis});`,
        );
        edited = edited.replace(/IFCLOCALPLACEMENT\s*\(\s*(\$|#\d+)/i, `IFCLOCALPLACEMENT(#${mover}`);
      }
      out.push(edited);
    }
    parts.push(out.join('\n'));
  }
  parts.push(text.slice(end));
  const dir = options.dir ?? join(tmpdir(), 'arsession-bench');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${basename(source).replace(/\.ifc$/i, '')}-merged${options.copies}.ifc`);
  writeFileSync(path, parts.join(''), 'latin1');
  return path;
}

const GUID_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$';

/**
 * Copy `k`'s GlobalId for `id`: its second and third digits (bits 2–13 of the 128) moved by `k`
 * times a large odd step, a bijection per copy, so GlobalIds stay valid compressed GUIDs.
 */
function uniqueGlobalId(id: string, k: number): string {
  const a = GUID_DIGITS.indexOf(id[1]!),
    b = GUID_DIGITS.indexOf(id[2]!);
  if (a < 0 || b < 0) return id;
  const v = (a * 64 + b + k * 1931) % 4096;
  return id[0]! + GUID_DIGITS[v >> 6]! + GUID_DIGITS[v & 63]! + id.slice(3);
}
