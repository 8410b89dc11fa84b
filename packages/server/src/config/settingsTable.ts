import { SETTINGS, shownDefault, type Setting } from './SETTINGS.js';

/**
 * docs/SERVER.md's settings table, made from {@link SETTINGS}: a row per variable with its default
 * and what it does. A test holds the document to it; the table is written by running this.
 *
 * @example
 * ```ts
 * settingsTable().split('\n')[2]; // → '| `PORT` | `8080` | the port to listen on; `0` picks a free one |'
 * ```
 */
export function settingsTable(): string {
  const rows = Object.values(SETTINGS).map((s: Setting<unknown>) => `| \`${s.env}\` | ${shownDefault(s)} | ${s.doc} |`);
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
