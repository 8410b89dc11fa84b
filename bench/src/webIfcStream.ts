import { createRequire } from 'node:module';
import type * as WebIfc from 'web-ifc';

let api: Promise<WebIfc.IfcAPI> | undefined;
let webIfc: typeof WebIfc | undefined;

/**
 * web-ifc's module, loaded the first time it is asked for, as CommonJS (what it is). A static
 * `import` made every bench child pay for it, whichever tool it ran: Node's ESM loader scans the
 * 6 MB file to tell its format and again for its exports (~1 s a process here), and a child
 * running our converter carried the peer's module in its peak memory. A child timing web-ifc
 * calls this before its clock starts, as the import did.
 */
export function loadWebIfcPeer(): typeof WebIfc {
  webIfc ??= createRequire(import.meta.url)('web-ifc') as typeof WebIfc;
  return webIfc;
}

/**
 * The floor we build on: web-ifc's own StreamAllMeshes with every geometry's vertex and index
 * arrays copied out, as any web-ifc user must do to use the meshes. Returns the triangle count.
 */
export async function webIfcStreamAllMeshes(bytes: Uint8Array): Promise<number> {
  api ??= (async () => {
    const { IfcAPI, LogLevel } = loadWebIfcPeer();
    const a = new IfcAPI();
    await a.Init();
    a.SetLogLevel(LogLevel.LOG_LEVEL_OFF);
    return a;
  })();
  const ifc = await api;
  const model = ifc.OpenModel(bytes);
  let triangles = 0;
  try {
    ifc.StreamAllMeshes(model, (mesh) => {
      for (let i = 0; i < mesh.geometries.size(); i++) {
        const geometry = ifc.GetGeometry(model, mesh.geometries.get(i).geometryExpressID);
        ifc.GetVertexArray(geometry.GetVertexData(), geometry.GetVertexDataSize());
        triangles += ifc.GetIndexArray(geometry.GetIndexData(), geometry.GetIndexDataSize()).length / 3;
        geometry.delete();
      }
    });
  } finally {
    ifc.CloseModel(model);
  }
  return triangles;
}
