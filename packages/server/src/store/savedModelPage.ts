import type { ModelFormat } from '@arsession/convert';
import type { SavedModel, SavedModelPage } from './SessionStore.js';

const FORMATS: readonly string[] = ['ifc', 'ifczip', 'glb', 'usdz'] satisfies ModelFormat[];

/** A `saved_models` row as either engine reads it (PostgreSQL's BIGINTs may arrive as strings). */
export interface SavedModelRow {
  id: string;
  session_id: string;
  source_name: string;
  format: string;
  bytes: number | string;
  sha256: string;
  created_at: number | string;
}

/** The page of `rows` (fetched one past `limit`) and where the next starts. */
export function savedModelPage(rows: readonly SavedModelRow[], limit: number): SavedModelPage {
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { models: rows.slice(0, limit).map(savedModelOf), next: last && { createdAt: Number(last.created_at), id: last.id } };
}

/** A row as the store's callers see it. */
export function savedModelOf(r: SavedModelRow): SavedModel {
  return {
    id: r.id,
    sessionId: r.session_id,
    sourceName: r.source_name,
    format: formatOf(r.format),
    bytes: Number(r.bytes),
    sha256: r.sha256,
    createdAt: new Date(Number(r.created_at)).toISOString(),
  };
}

/** A stored format as the type it was written as; a row holding another was not written by this server. */
function formatOf(text: string): ModelFormat {
  if (!FORMATS.includes(text)) throw new Error(`a saved model's format is ${JSON.stringify(text)}, which no conversion reports`);
  return text as ModelFormat;
}
