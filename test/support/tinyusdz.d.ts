// tinyusdz ships no types; this declares the part of its Embind API we use.
declare module 'tinyusdz' {
  export interface TinyUsdzMesh {
    absPath: string;
    points: Float32Array;
    faceVertexIndices: Uint32Array;
    faceVertexCounts: Uint32Array;
    normals?: Float32Array;
    texcoords?: Float32Array;
    materialId: number;
  }
  export interface TinyUsdzMaterial {
    diffuseColor: [number, number, number];
    diffuseColorTextureId?: number;
    emissiveColor: [number, number, number];
    metallic: number;
    roughness: number;
    opacity: number;
    opacityThreshold: number;
  }
  export interface TinyUsdzNode {
    primName: string;
    absPath: string;
    nodeType: string;
    contentId: number;
    localMatrix: number[];
    globalMatrix: number[];
    children: TinyUsdzNode[];
  }
  export interface TinyUsdzLoaderNative {
    loadAsLayerFromBinary(data: Uint8Array, name: string): boolean;
    loadFromBinary(data: Uint8Array, name: string): boolean;
    setAsset(name: string, data: Uint8Array): void;
    layerToString(): string;
    layerToRenderScene(): boolean;
    numMeshes(): number;
    getMesh(i: number): TinyUsdzMesh;
    getMaterial(i: number): TinyUsdzMaterial;
    getTexture(i: number): { textureImageId: number };
    getImage(i: number): { uri: string; data: Uint8Array };
    getDefaultRootNode(): TinyUsdzNode;
    extractSublayerAssetPaths(): string[];
    extractReferencesAssetPaths(): string[];
    extractPayloadAssetPaths(): string[];
    composeSublayers(): boolean;
    hasReferences(): boolean;
    composeReferences(): boolean;
    hasPayload(): boolean;
    composePayload(): boolean;
    error(): string;
    delete(): void;
  }
  export interface TinyUsdzModule {
    TinyUSDZLoaderNative: new () => TinyUsdzLoaderNative;
  }
  const init: (options: { wasmBinary: Uint8Array }) => Promise<TinyUsdzModule>;
  export default init;
}
