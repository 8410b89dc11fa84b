/** Options of {@link sessionLevels}. */
export interface SessionLevelsOptions {
  /** Elevations closer than this (m) are one level: discipline models round a storey's datum differently. */
  tolerance: number;
}

/** Defaults of {@link sessionLevels}. */
export const SESSION_LEVELS_DEFAULTS: Readonly<SessionLevelsOptions> = { tolerance: 0.5 };

/** What {@link sessionLevels} reads of a part: its storey's name and elevation (`null`: a part no storey holds). */
export type PartStoreyKey = { name: string; elevation_m: number | null } | null;

/**
 * The session's levels: one number per storey shared by the session's models, so the parts of a
 * federation (architecture, structure, services, each its own file) that make one storey are
 * loaded together. Storeys whose elevations agree (within `tolerance`, chained bottom up) are one
 * level, numbered from 0 at the lowest; storeys that state no elevation are one level per name,
 * after those; a part no storey holds has none (`null`).
 *
 * @example
 * ```ts
 * sessionLevels([[{ name: 'EG', elevation_m: 0 }], [{ name: 'Level 1', elevation_m: 0.02 }, { name: 'Level 2', elevation_m: 3 }]]);
 * // → [[0], [0, 1]]
 * ```
 */
export function sessionLevels(
  assets: ReadonlyArray<ReadonlyArray<PartStoreyKey>>,
  options: Partial<SessionLevelsOptions> = {},
): Array<Array<number | null>> {
  const { tolerance } = { ...SESSION_LEVELS_DEFAULTS, ...options };
  const elevations = [
    ...new Set(assets.flatMap((parts) => parts.flatMap((s) => (s && s.elevation_m !== null ? [s.elevation_m] : [])))),
  ].sort((a, b) => a - b);
  const levelOfElevation = new Map<number, number>();
  let level = -1;
  elevations.forEach((e, i) => {
    if (i === 0 || e - elevations[i - 1]! > tolerance) level++;
    levelOfElevation.set(e, level);
  });
  const levelOfName = new Map<string, number>();
  for (const parts of assets)
    for (const s of parts) if (s && s.elevation_m === null && !levelOfName.has(s.name)) levelOfName.set(s.name, ++level);
  return assets.map((parts) =>
    parts.map((s) => (s === null ? null : s.elevation_m === null ? levelOfName.get(s.name)! : levelOfElevation.get(s.elevation_m)!)),
  );
}
