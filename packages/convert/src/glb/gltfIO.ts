import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import draco3d from 'draco3dgltf';
import { MeshoptDecoder } from 'meshoptimizer/decoder';

let io: Promise<NodeIO> | undefined;

/**
 * One glTF reader per process with every extension and both geometry decoders (Draco, meshopt)
 * registered. The decoders are WASM modules that take ~100 ms to start, so they start once.
 */
export function gltfIO(): Promise<NodeIO> {
  io ??= (async () => {
    await MeshoptDecoder.ready;
    return new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
      'draco3d.decoder': await draco3d.createDecoderModule(),
      'meshopt.decoder': MeshoptDecoder,
    });
  })();
  return io;
}
