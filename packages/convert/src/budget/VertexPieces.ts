/**
 * Vertices joined into pieces (union–find with path halving): which vertices one surface holds
 * together, through the triangles that join them.
 *
 * @example
 * ```ts
 * const pieces = new VertexPieces(4);
 * pieces.join(0, 1);
 * pieces.find(0) === pieces.find(1); // → true
 * pieces.find(2) === pieces.find(3); // → false
 * ```
 */
export class VertexPieces {
  private readonly root: Uint32Array;

  constructor(vertices: number) {
    this.root = new Uint32Array(vertices);
    for (let v = 0; v < vertices; v++) this.root[v] = v;
  }

  /** The vertex that stands for the piece of `v`. */
  find(v: number): number {
    while (this.root[v] !== v) {
      this.root[v] = this.root[this.root[v]!]!;
      v = this.root[v]!;
    }
    return v;
  }

  /** Puts `a` and `b` in one piece. */
  join(a: number, b: number): void {
    const ra = this.find(a),
      rb = this.find(b);
    if (ra !== rb) this.root[ra] = rb;
  }
}
