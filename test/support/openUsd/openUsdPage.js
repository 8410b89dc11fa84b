// The page half of the OpenUSD oracle (served by openUsd.ts; a classic script, because OpenUSD's
// emscripten glue finds its folder through document.currentScript). It opens a USD file with
// OpenUSD's own UsdStage, syncs it through Hydra (HdWebSyncDriver) into a render delegate that
// only counts, and reports what Hydra would draw: meshes, triangles, world bounds.
(() => {
  let usd = null;
  let aborted = null;
  let loads = 0;
  const log = [];

  // What Hydra hands a render delegate, per mesh (OpenUSD 22's hdEmscripten): the authored points
  // (object space), triangle indices, and the world matrix (row-major, row vectors). The arrays
  // alias WASM memory for the length of the call only, so they are copied.
  class Mesh {
    constructor(path) {
      this.path = path;
      this.points = null;
      this.indices = null;
      this.transform = null;
      this.material = null;
    }
    setMaterial(id) {
      this.material = String(id);
    }
    updatePoints(v) {
      this.points = v.slice();
    }
    updateIndices(v) {
      this.indices = v.slice();
    }
    updateNormals() {}
    updatePrimvar() {}
    setTransform(v) {
      this.transform = Array.from(v);
    }
    commit() {}
  }
  class Material {
    updateNode() {}
    updateFinished() {}
  }
  class Delegate {
    constructor() {
      this.meshes = [];
    }
    createRPrim(type, path) {
      const m = new Mesh(String(path));
      if (String(type) === 'mesh') this.meshes.push(m);
      return m;
    }
    createSPrim() {
      return new Material();
    }
    createBPrim() {
      return undefined;
    }
    CommitResources() {}
  }

  function worldBounds(meshes) {
    const min = [Infinity, Infinity, Infinity],
      max = [-Infinity, -Infinity, -Infinity];
    for (const m of meshes) {
      const p = m.points,
        t = m.transform || [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
      for (let i = 0; i < p.length; i += 3) {
        const w = [0, 1, 2].map((k) => p[i] * t[k] + p[i + 1] * t[4 + k] + p[i + 2] * t[8 + k] + t[12 + k]);
        for (let k = 0; k < 3; k++) {
          if (w[k] < min[k]) min[k] = w[k];
          if (w[k] > max[k]) max[k] = w[k];
        }
      }
    }
    return Number.isFinite(min[0]) ? { min, max } : null;
  }

  /** Hydra syncs invisible prims as it does visible ones: leave out what the stage hides. */
  function visible(stage, path) {
    for (let p = path.split('.')[0]; p && p !== '/'; p = p.slice(0, p.lastIndexOf('/'))) {
      let prim = null,
        attr = null;
      try {
        prim = stage.GetPrimAtPath(p);
        attr = prim.GetAttribute('visibility');
        if (attr.Get() === 'invisible') return false;
      } catch {
        /* a prim of Hydra's own naming (an instancer's prototype): no attribute */
      } finally {
        try {
          attr?.delete();
        } catch {}
        try {
          prim?.delete();
        } catch {}
      }
    }
    return true;
  }

  /** What OpenUSD reads as a screen reader's text for a mesh: each prim at or above it with an accessibility label, nearest first. */
  function spokenFor(stage, path) {
    const found = [];
    for (let p = path.split('.')[0]; p && p !== '/'; p = p.slice(0, p.lastIndexOf('/'))) {
      let prim = null,
        label = null,
        description = null;
      try {
        prim = stage.GetPrimAtPath(p);
        label = prim.GetAttribute('accessibility:default:label');
        const text = label.Get();
        if (typeof text === 'string' && text) {
          description = prim.GetAttribute('accessibility:default:description');
          found.push({ prim: p, label: text, description: String(description.Get() ?? '') });
        }
      } catch {
        /* a prim of Hydra's own naming: no attributes */
      } finally {
        for (const h of [description, label, prim]) {
          try {
            h?.delete();
          } catch {}
        }
      }
    }
    return found;
  }

  /**
   * A mesh's faces per element (and the triangles Hydra drew of it) as OpenUSD reads its indexed `primvars:element` (values and
   * indices, flattened here as `UsdGeomPrimvar.ComputeFlattened` would); null without one.
   */
  function elementsOf(stage, path, drawnFaces) {
    let prim = null,
      values = null,
      indices = null;
    try {
      prim = stage.GetPrimAtPath(path.split('.')[0]);
      values = prim.GetAttribute('primvars:element');
      indices = prim.GetAttribute('primvars:element:indices');
      const table = values.Get(),
        faces = indices.Get();
      if (!table || !faces) return null;
      const ids = {};
      for (const i of Array.from(faces)) {
        const id = table[i];
        if (typeof id !== 'string') return { faces: faces.length, drawnFaces, ids, outOfTable: i };
        ids[id] = (ids[id] || 0) + 1;
      }
      return { faces: faces.length, drawnFaces, ids };
    } catch {
      return null;
    } finally {
      for (const h of [indices, values, prim]) {
        try {
          h?.delete();
        } catch {}
      }
    }
  }

  function layerMetadata(stage) {
    const layer = stage.GetRootLayer();
    try {
      const text = layer.ExportToString();
      const head = text.slice(0, Math.max(0, text.search(/\n\s*(def|over|class)\s/)) || 4096);
      const up = /\bupAxis\s*=\s*"([^"]*)"/.exec(head),
        mpu = /\bmetersPerUnit\s*=\s*([-+0-9.eE]+)/.exec(head);
      // OpenUSD's own text of the layer: instanceable prims as it read them (Hydra draws a prototype once).
      const instances = (text.match(/\binstanceable = true\b/g) || []).length;
      return { upAxis: up ? up[1] : null, metersPerUnit: mpu ? Number(mpu[1]) : null, instances };
    } finally {
      layer.delete();
    }
  }

  async function init() {
    if (!self.crossOriginIsolated) throw new Error('the page is not cross-origin isolated (COOP/COEP): OpenUSD needs SharedArrayBuffer');
    await new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = '/wasm/emHdBindings.js';
      s.onload = resolve;
      s.onerror = () => reject(new Error('OpenUSD could not be loaded'));
      document.head.appendChild(s);
    });
    usd = await self.getUsdModule(
      {
        print: (t) => log.push(String(t)),
        printErr: (t) => log.push(String(t)),
        onAbort: (what) => {
          aborted = String(what);
        },
      },
      '/wasm',
    );
    usd.FS.mkdir('/models');
    // The first stage loads OpenUSD's plugins and Hydra's adapters, and the first draw starts its
    // threads (workers that load through this page's event loop): done here, on a one-quad stage,
    // so no model's Draw() ever holds the page while a thread it waits for is still loading.
    const warm = new TextEncoder().encode(
      '#usda 1.0\ndef Mesh "M" {\n int[] faceVertexCounts = [3]\n int[] faceVertexIndices ' +
        '= [0, 1, 2]\n point3f[] points = [(0,0,0), (1,0,0), (0,1,0)]\n}\n',
    );
    const report = await open(URL.createObjectURL(new Blob([warm])), 'warm.usda');
    if (report.triangles !== 1) throw new Error(`OpenUSD's first stage did not draw: ${report.error || JSON.stringify(report)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  /** A layer whose prim `/Selected` references the file's default prim and selects `variants` on it. */
  function selecting(fileName, variants) {
    const chosen = Object.entries(variants).map(([set, v]) => `        string ${set} = ${JSON.stringify(v)}\n`);
    const text =
      `#usda 1.0\n(\n    defaultPrim = "Selected"\n)\n\ndef "Selected" (\n    prepend references = @./${fileName}@\n` +
      `    variants = {\n${chosen.join('')}    }\n)\n{\n}\n`;
    return new TextEncoder().encode(text);
  }

  async function open(url, name, time, variants) {
    if (aborted) return { error: `OpenUSD aborted earlier (${aborted})` };
    const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
    // A zero-byte file makes this build abort() the whole module.
    if (bytes.length === 0) return { error: 'an empty file' };
    const dir = `/models/${++loads}`;
    const path = `${dir}/${name.replace(/[^A-Za-z0-9._-]/g, '_')}`;
    usd.FS.mkdir(dir);
    usd.FS.writeFile(path, bytes);
    const wrapper = variants ? `${dir}/selected.usda` : null;
    if (wrapper) usd.FS.writeFile(wrapper, selecting(path.slice(dir.length + 1), variants));
    log.length = 0;
    let stage = null,
      driver = null;
    try {
      stage = usd.UsdStage.Open(wrapper || path);
      if (!stage)
        return {
          error: `OpenUSD cannot open it: ${
            log
              .filter((l) => /Error|error/.test(l))
              .slice(0, 3)
              .join(' | ') || 'UsdStage.Open returned null'
          }`,
        };
      const delegate = new Delegate();
      driver = usd.HdWebSyncDriver.CreateFromStage(delegate, stage);
      if (typeof time === 'number') driver.SetTime(time);
      driver.Draw();
      const drawn = delegate.meshes.filter((m) => m.points && m.indices && m.indices.length > 0 && visible(stage, m.path));
      return {
        ...layerMetadata(stage),
        meshes: drawn.length,
        triangles: drawn.reduce((n, m) => n + m.indices.length / 3, 0),
        bounds: worldBounds(drawn),
        paths: drawn.map((m) => m.path).sort(),
        materials: Object.fromEntries(drawn.map((m) => [m.path, m.material])),
        spoken: Object.fromEntries(drawn.map((m) => [m.path, spokenFor(stage, m.path)])),
        elements: Object.fromEntries(drawn.map((m) => [m.path, elementsOf(stage, m.path, m.indices.length / 3)])),
        // This build finds no shader discovery plugin the first time a material is drawn: its own lack, not the file's.
        diagnostics: log.filter(
          (l) =>
            /error|warning|invalid|cannot|could not|failed/i.test(l) &&
            !/_FindAndInstantiateDiscoveryPlugins/.test(l) &&
            // This build's web render delegate does not take `uniform` primvars (one value per face, as
            // `primvars:element` is): standard USD it skips, not a fault of the file.
            !/Unsupported interpolation type 'uniform' for primvar element\b/.test(l),
        ),
      };
    } catch (e) {
      return { error: typeof e === 'number' ? `OpenUSD threw (C++ exception ${e})` : String(e?.message || e) };
    } finally {
      for (const h of [driver, stage]) {
        try {
          h && !aborted && h.delete();
        } catch {}
      }
      try {
        if (wrapper) usd.FS.unlink(wrapper);
        usd.FS.unlink(path);
        usd.FS.rmdir(dir);
      } catch {}
    }
  }

  self.openUsd = { init, open };
})();
