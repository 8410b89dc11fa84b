// tinyusdz ships no types; this declares the part of its Embind API the tests use.
declare module 'tinyusdz' {
  export interface TinyUsdzMesh {
    absPath: string;
    points: Float32Array;
    faceVertexIndices: Uint32Array;
    faceVertexCounts: Uint32Array;
    materialId: number;
  }
  export interface TinyUsdzLoaderNative {
    loadAsLayerFromBinary(data: Uint8Array, name: string): boolean;
    loadFromBinary(data: Uint8Array, name: string): boolean;
    setAsset(name: string, data: Uint8Array): void;
    layerToString(): string;
    layerToRenderScene(): boolean;
    numMeshes(): number;
    getMesh(i: number): TinyUsdzMesh;
    getMaterial(i: number): Record<string, unknown>;
    error(): string;
    delete(): void;
  }
  export interface TinyUsdzModule {
    TinyUSDZLoaderNative: new () => TinyUsdzLoaderNative;
  }
  const init: (options: { wasmBinary: Uint8Array }) => Promise<TinyUsdzModule>;
  export default init;
}
