/**
 * Where each entity statement (`#id=…;`) of a STEP file starts, recorded by
 * {@link checkStepSyntax} as it walks the file anyway, so that attributes can be read straight
 * from the bytes (`StepFile`) instead of through web-ifc's `GetLine` (~10 µs a line).
 *
 * @example
 * ```ts
 * const offsets = new StepEntityOffsets();
 * checkStepSyntax(bytes, {}, offsets);
 * offsets.offsetOf(40); // → byte index of '#40=', or −1
 * ```
 */
export class StepEntityOffsets {
  private ids = new Float64Array(1024);
  private offsets = new Float64Array(1024);
  private count = 0;
  private maxId = 0;
  private sorted = true;
  /** Offset by id, built at the first lookup when ids are dense (they nearly always are). */
  private table: Float64Array | undefined;
  /** Offset by id when ids are sparse and out of order. */
  private map: Map<number, number> | undefined;

  /** Records entity `id` starting at byte `offset`, in file order. */
  add(id: number, offset: number): void {
    if (this.count === this.ids.length) {
      this.ids = grow(this.ids);
      this.offsets = grow(this.offsets);
    }
    if (id <= this.maxId) this.sorted = false;
    else this.maxId = id;
    this.ids[this.count] = id;
    this.offsets[this.count++] = offset;
    this.table = undefined;
    this.map = undefined;
  }

  /**
   * Byte index of entity `id`'s statement, −1 when the file has none. A file that numbers two
   * statements `id` is read from the later one, as web-ifc reads it.
   */
  offsetOf(id: number): number {
    if (this.maxId <= 4 * this.count + 65536) {
      this.table ??= this.denseTable();
      return id >= 0 && id < this.table.length ? this.table[id]! : -1;
    }
    if (this.sorted) return this.search(id);
    this.map ??= this.sparseMap();
    return this.map.get(id) ?? -1;
  }

  private denseTable(): Float64Array {
    const table = new Float64Array(this.maxId + 1).fill(-1);
    for (let i = 0; i < this.count; i++) table[this.ids[i]!] = this.offsets[i]!;
    return table;
  }

  private search(id: number): number {
    let lo = 0,
      hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.ids[mid]!;
      if (v === id) return this.offsets[mid]!; // sorted means strictly increasing: no duplicates
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  private sparseMap(): Map<number, number> {
    const map = new Map<number, number>();
    for (let i = 0; i < this.count; i++) map.set(this.ids[i]!, this.offsets[i]!);
    return map;
  }
}

function grow(a: Float64Array): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(a.length * 2);
  bigger.set(a);
  return bigger;
}
