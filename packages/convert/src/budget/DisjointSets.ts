/**
 * Items 0…n−1 joined into sets (union–find with path halving): the vertices one surface holds
 * together through its triangles, the pieces that lie close enough to be boxed as one.
 *
 * @example
 * ```ts
 * const sets = new DisjointSets(4);
 * sets.join(0, 1);
 * sets.find(0) === sets.find(1); // → true
 * sets.find(2) === sets.find(3); // → false
 * ```
 */
export class DisjointSets {
  private readonly root: Uint32Array;

  constructor(count: number) {
    this.root = new Uint32Array(count);
    for (let v = 0; v < count; v++) this.root[v] = v;
  }

  /** The item that stands for the set of `v`. */
  find(v: number): number {
    while (this.root[v] !== v) {
      this.root[v] = this.root[this.root[v]!]!;
      v = this.root[v]!;
    }
    return v;
  }

  /** Puts `a` and `b` in one set. */
  join(a: number, b: number): void {
    const ra = this.find(a),
      rb = this.find(b);
    if (ra !== rb) this.root[ra] = rb;
  }
}
