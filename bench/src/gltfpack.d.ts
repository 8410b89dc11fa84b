// gltfpack's npm package ships its library without types: the one function the bench calls.
declare module 'gltfpack/library.js' {
  /** Runs gltfpack with command-line `args`, reading and writing files through `io`; resolves with its log. */
  export function pack(
    args: string[],
    io: { read(path: string): Uint8Array; write(path: string, data: Uint8Array): void },
  ): Promise<string>;
}
