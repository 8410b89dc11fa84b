import { IfcAPI, LogLevel } from 'web-ifc';

let api: Promise<IfcAPI> | undefined;

/**
 * The floor we build on: web-ifc's own StreamAllMeshes with every geometry's vertex and index
 * arrays copied out, as any web-ifc user must do to use the meshes. Returns the triangle count.
 */
export async function webIfcStreamAllMeshes(bytes: Uint8Array): Promise<number> {
  api ??= (async () => {
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
