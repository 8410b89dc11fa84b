import type { ArBudget } from '@arsession/convert/pool';

/** What `arsession convert` was asked, once its flags are checked. */
export interface ConvertOptions {
  out: string;
  glb?: string;
  /** A folder for the parts of a model over the budget (one model only). */
  parts?: string;
  /** A file for an IFC's element records (JSON, gzipped when it ends in `.gz`; one model only). */
  elements?: string;
  json: boolean;
  jobs: number;
  timeoutMs?: number;
  /** The AR budget's limits set by flags (the rest at their defaults), or `false` for none. */
  budget: Partial<ArBudget> | false;
}
