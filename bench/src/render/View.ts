import type { Camera } from './camera.js';

/**
 * The fixed views a model is rendered from: a building's (`modelViews`) or a line's, such as a
 * railway kilometres long (`lineViews`).
 */
export type ViewName = 'outside' | 'facade' | 'inside' | 'plan' | 'stretch' | 'track';

/** One fixed view: its name (in file names), a caption, its camera. */
export interface View {
  name: ViewName;
  title: string;
  camera: Camera;
}
