import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import { detectFormat, fitArBudget, readGlb, readIfc, type SceneData } from '@arsession/convert';
import { StreamReduction } from '@arsession/convert/budget';
import { BENCH_DIR } from '../corpus.js';
import { worldTriangles } from '../fidelity/worldTriangles.js';
import { downsample } from './downsample.js';
import { encodePng } from './encodePng.js';
import { insideStand } from './insideStand.js';
import { rasterize } from './rasterize.js';
import { sceneColours } from './sceneColours.js';
import { standingBounds } from './standingBounds.js';
import { SIDE_BY_SIDE_DEFAULTS, sideBySide } from './sideBySide.js';
import { isLine, lineViews } from './lineViews.js';
import type { View, ViewName } from './View.js';
import { modelViews } from './views.js';

/** Options of {@link renderModel}. */
export interface RenderModelOptions {
  /** Size of each side of a picture (the PNG is twice as wide, plus a gap). */
  width: number;
  height: number;
  /** Rendered at this multiple each way and shrunk: smooth edges, and no shimmer of sub-pixel triangles. */
  supersample: number;
  /** Where the PNGs go (bench/renders); the paths reported are relative to its parent, where RESULTS.md is. */
  outDir: string;
  /** The delivered scenes are in the full model's frame though they state no offset (a part's USDZ read back). */
  deliveredInFullFrame?: boolean;
}

/** Defaults of {@link renderModel}. */
export const RENDER_MODEL_DEFAULTS: Readonly<RenderModelOptions> = {
  width: 1024,
  height: 640,
  supersample: 2,
  outDir: join(BENCH_DIR, 'renders'),
};

/** One view's picture: the full model left, the delivery right. */
export interface RenderedView {
  name: ViewName;
  title: string;
  /** The PNG, relative to the parent of the folder it was written to (bench/, where RESULTS.md is). */
  image: string;
  bytes: number;
}

/** A model rendered as read and as delivered within the AR budget, from the same fixed views. */
export interface RenderedModel {
  file: string;
  /** Triangles each side has, and those drawn (materials under the opacity floor are not). */
  triangles: { full: number; delivered: number };
  drawn: { full: number; delivered: number };
  /** The offsets the two reads chose; the delivered triangles are placed in the full model's frame. */
  offsets: { full: [number, number, number]; delivered: [number, number, number] };
  views: RenderedView[];
  /** Wall time of each stage (ms): reading includes flattening, rendering the three views. */
  ms: { readFull: number; renderFull: number; readDelivered: number; renderDelivered: number; write: number; total: number };
}

/**
 * Renders a model (IFC or GLB) as read in full and as a conversion delivers it within the default
 * AR budget (IFC: the stream reduction, then `fitArBudget`; GLB: `fitArBudget`), from the three
 * fixed views of {@link modelViews} framed on the full model, and writes one PNG per view, the full
 * model left and the delivery right: `<outDir>/<model stem>-<view>.png`. Glass and other
 * see-through materials are left out (see `sceneColours`). Memory: the full model's scene is
 * dropped once flattened, and its triangles once its views are drawn, before the delivery is read.
 *
 * @example
 * ```ts
 * const r = await renderModel('/work/shared/corpus/ifc/AC20-FZK-Haus.ifc');
 * r.views.map((v) => v.image); // → ['renders/AC20-FZK-Haus-outside.png', …]
 * ```
 */
export async function renderModel(path: string, options: Partial<RenderModelOptions> = {}): Promise<RenderedModel> {
  const file = basename(path);
  // A fresh copy for each read: a reader may keep or hand on the buffer it is given.
  const bytes = () => new Uint8Array(readFileSync(path));
  const format = detectFormat(bytes());
  if (format !== 'ifc' && format !== 'glb') throw new Error(`${file}: renders IFC and GLB, not ${format ?? 'an unknown format'}`);
  return renderTogether(file, [() => (format === 'glb' ? readGlb(bytes()) : readIfc(bytes()))], [() => deliver(bytes(), format)], options);
}

/**
 * Renders scenes a device shows together (one model, or a federation's models in the one frame
 * their offsets put them in) as read and as delivered, as {@link renderModel} does one model:
 * `full` and `delivered` read each scene in turn, and only one scene is held at a time. The PNGs
 * are named after `name`'s stem.
 *
 * @example
 * ```ts
 * await renderTogether('federation', files.map((f) => () => readModel(read(f))), delivered.map((d) => () => readGlb(d)));
 * ```
 */
export async function renderTogether(
  name: string,
  full: ReadonlyArray<() => Promise<SceneData>>,
  delivered: ReadonlyArray<() => Promise<SceneData>>,
  options: Partial<RenderModelOptions> = {},
): Promise<RenderedModel> {
  const { width, height, supersample, outDir, deliveredInFullFrame } = { ...RENDER_MODEL_DEFAULTS, ...options };
  const started = performance.now();
  const fullSide = await renderSide(full, { width, height, supersample });
  const deliveredSide = await renderSide(delivered, { width, height, supersample, inFrameOf: deliveredInFullFrame }, fullSide);
  const rendered = performance.now();

  mkdirSync(outDir, { recursive: true });
  const stem = basename(name, extname(name));
  const views = fullSide.views.map((view, i): RenderedView => {
    const png = encodePng(
      sideBySide(fullSide.images[i]!, deliveredSide.images[i]!, width, height),
      2 * width + SIDE_BY_SIDE_DEFAULTS.gap,
      height,
    );
    const out = join(outDir, `${stem}-${view.name}.png`);
    writeFileSync(out, png);
    return { name: view.name, title: view.title, image: relative(dirname(outDir), out), bytes: png.length };
  });
  const done = performance.now();
  return {
    file: name,
    triangles: { full: fullSide.triangles, delivered: deliveredSide.triangles },
    drawn: { full: fullSide.drawn, delivered: deliveredSide.drawn },
    offsets: { full: fullSide.offset, delivered: deliveredSide.offset },
    views,
    ms: {
      readFull: fullSide.ms.read,
      renderFull: fullSide.ms.render,
      readDelivered: deliveredSide.ms.read,
      renderDelivered: deliveredSide.ms.render,
      write: done - rendered,
      total: done - started,
    },
  };
}

/** One side of the pictures: its images of each view, and what it drew. */
interface Side {
  views: View[];
  images: Uint8Array[];
  /** The frame its triangles were drawn in (the full model's), and the offset its read chose. */
  frame: [number, number, number];
  offset: [number, number, number];
  triangles: number;
  drawn: number;
  ms: { read: number; render: number };
}

/**
 * Reads one side and draws its views: the full model's, framed on it (see `fixedViews`), in its
 * own frame (the first scene's offset); the delivery's from the full model's views, in its frame
 * (`like`). Each scene is flattened and dropped before the next is read; the triangles are only
 * this function's, so they are collected once it returns.
 */
async function renderSide(
  reads: ReadonlyArray<() => Promise<SceneData>>,
  { width, height, supersample, inFrameOf }: { width: number; height: number; supersample: number; inFrameOf?: boolean },
  like?: Side,
): Promise<Side> {
  const started = performance.now();
  const soups: Array<{ positions: Float32Array; categories: Uint8Array; colours: Uint8Array }> = [];
  let frame = like?.frame,
    offset: [number, number, number] | undefined;
  for (const read of reads) {
    const read1 = await read();
    const scene = inFrameOf && like ? { ...read1, offset: like.offset } : read1;
    offset ??= [scene.offset[0], scene.offset[1], scene.offset[2]];
    // A model point p lies at p − offset in its scene: placed relative to one frame, every scene and both sides share it.
    const world = worldTriangles(scene, frame ?? offset);
    frame ??= world.offset;
    soups.push({ positions: world.positions, categories: world.categories, colours: sceneColours(scene) });
  }
  const positions = concat(
    soups.map((s) => s.positions),
    Float32Array,
  );
  const categories = concat(
    soups.map((s) => s.categories),
    Uint8Array,
  );
  const colours = concat(
    soups.map((s) => s.colours),
    Uint8Array,
  );
  const views = like?.views ?? fixedViews(positions, categories, width / height);
  const readDone = performance.now();
  const images = views.map((view) => {
    const rgba = rasterize({ positions, colours }, view.camera, { width: width * supersample, height: height * supersample });
    return downsample(rgba, width * supersample, height * supersample, supersample);
  });
  return {
    views,
    images,
    frame: frame ?? [0, 0, 0],
    offset: offset ?? [0, 0, 0],
    triangles: colours.length / 4,
    drawn: drawnOf(colours),
    ms: { read: readDone - started, render: performance.now() - readDone },
  };
}

/** The arrays one after another (the one array itself when there is one: nothing copied). */
function concat<T extends Float32Array | Uint8Array>(arrays: T[], Type: { new (length: number): T }): T {
  if (arrays.length === 1) return arrays[0]!;
  const out = new Type(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

/** The model as a conversion delivers it within the default AR budget (what `runConversion` does). */
async function deliver(bytes: Uint8Array, format: 'ifc' | 'glb'): Promise<SceneData> {
  const reduction = new StreamReduction({ triangles: 100_000, startTriangles: 100_000 });
  const read = format === 'glb' ? await readGlb(bytes) : await readIfc(bytes, { reduction });
  return (await fitArBudget(read)).scene;
}

/**
 * The fixed views of a full model: a line's (a railway kilometres long: see `lineViews`), or a
 * building's, framed on what stands on its lowest floor, standing on that floor inside.
 */
function fixedViews(positions: Float32Array, categories: Uint8Array, aspect: number): View[] {
  // Below no floor, every triangle stands: the bounds of all of them.
  const bounds = standingBounds(positions, Number.NEGATIVE_INFINITY);
  if (isLine(bounds)) return lineViews(positions, { aspect, bounds });
  const stand = insideStand(positions, categories);
  const frame = standingBounds(positions, stand?.floorY ?? Number.NEGATIVE_INFINITY);
  return modelViews(frame, { aspect, stand: stand && [stand.x, stand.floorY, stand.z], look: stand?.look });
}

/** Triangles drawn: those whose colour is not fully transparent. */
function drawnOf(colours: Uint8Array): number {
  let n = 0;
  for (let i = 3; i < colours.length; i += 4) if (colours[i] !== 0) n++;
  return n;
}
