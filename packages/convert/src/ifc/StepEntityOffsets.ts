/**
 * Where each entity statement (`#id=…;`) of a STEP file starts, recorded by
 * {@link checkStepSyntax} as it walks the file anyway, so that attributes can be read straight
 * from the bytes (`StepFile`) instead of through web-ifc's `GetLine` (~10 µs a line).
 *
 * Recorded in file order, then indexed ({@link StepEntityOffsets.compact}, or the first lookup),
 * and the record let go. The index is held while web-ifc holds its own heap, so it is the least
 * that answers lookups: at 500 MB (8 M entities) a table of 4 bytes an id, where record and table
 * held 190 MB.
 *
 * @example
 * ```ts
 * const offsets = new StepEntityOffsets();
 * checkStepSyntax(bytes, {}, offsets);
 * offsets.offsetOf(40); // → byte index of '#40=', or −1
 * ```
 */
export class StepEntityOffsets {
  private record: EntityRecord | undefined = new EntityRecord();
  private index: EntityIndex | undefined;

  /** Records entity `id` starting at byte `offset`, in file order. */
  add(id: number, offset: number): void {
    // Recording after a lookup (never done by the reader) starts again from what the index holds.
    if (!this.record) this.record = EntityRecord.of(this.index!);
    this.index = undefined;
    this.record.add(id, offset);
  }

  /**
   * Byte index of entity `id`'s statement, −1 when the file has none. A file that numbers two
   * statements `id` is read from the later one, as web-ifc reads it.
   */
  offsetOf(id: number): number {
    this.compact();
    return this.index!.offsetOf(id);
  }

  /**
   * Indexes what was recorded now, as the first lookup would, and lets the record go: called once
   * the file is walked, before web-ifc's heap grows beside it.
   */
  compact(): void {
    if (this.index) return;
    this.index = this.record!.index();
    this.record = undefined;
  }

  /** Bytes of the arrays held now: the record's while recording, the index's after a lookup (a sparse file's map not counted). */
  get heldBytes(): number {
    return (this.record ?? this.index!).heldBytes;
  }

  /**
   * The index as plain data (indexing what was recorded first): what a thread that walked the
   * file hands the thread that reads it, its arrays transferred (see {@link transferablesOf}).
   */
  toData(): StepEntityOffsetsData {
    this.compact();
    return this.index!.data();
  }

  /** The offsets {@link toData} gave, ready for lookups. */
  static fromData(data: StepEntityOffsetsData): StepEntityOffsets {
    const offsets = new StepEntityOffsets();
    offsets.record = undefined;
    offsets.index =
      data.kind === 'dense'
        ? new DenseIndex(data.table)
        : data.kind === 'sorted'
          ? new SortedIndex(data.ids, data.offsets)
          : new MapIndex(data.map);
    return offsets;
  }
}

/** A {@link StepEntityOffsets} index as plain data, as it crosses between threads. */
export type StepEntityOffsetsData =
  | { kind: 'dense'; table: Uint32Array | Float64Array }
  | { kind: 'sorted'; ids: Float64Array; offsets: Float64Array }
  | { kind: 'map'; map: Map<number, number> };

/** The buffers of `data`, to transfer rather than copy. */
export function transferablesOf(data: StepEntityOffsetsData): ArrayBuffer[] {
  const arrays = data.kind === 'dense' ? [data.table] : data.kind === 'sorted' ? [data.ids, data.offsets] : [];
  return arrays.map((a) => a.buffer as ArrayBuffer);
}

/** Entities as the file numbers them, in file order. */
class EntityRecord {
  private ids = new Float64Array(1024);
  private offsets = new Float64Array(1024);
  private count = 0;
  // −1: a file whose first statement is #0 is still in order.
  private maxId = -1;
  private maxOffset = 0;
  private sorted = true;

  /** A record of what `index` holds, in the order it lists it. */
  static of(index: EntityIndex): EntityRecord {
    const record = new EntityRecord();
    index.forEach((id, offset) => record.add(id, offset));
    return record;
  }

  get heldBytes(): number {
    return this.ids.byteLength + this.offsets.byteLength;
  }

  add(id: number, offset: number): void {
    if (this.count === this.ids.length) {
      this.ids = grow(this.ids);
      this.offsets = grow(this.offsets);
    }
    if (id <= this.maxId) this.sorted = false;
    else this.maxId = id;
    this.maxOffset = Math.max(this.maxOffset, offset);
    this.ids[this.count] = id;
    this.offsets[this.count++] = offset;
  }

  /** The index that answers lookups in the least memory: by id when ids are dense (they nearly always are). */
  index(): EntityIndex {
    const { ids, offsets, count } = this;
    if (this.maxId <= 4 * count + 65536) return DenseIndex.of(ids, offsets, count, this.maxId, this.maxOffset);
    if (this.sorted) return new SortedIndex(ids.slice(0, count), offsets.slice(0, count));
    const map = new Map<number, number>();
    for (let i = 0; i < count; i++) map.set(ids[i]!, offsets[i]!);
    return new MapIndex(map);
  }
}

/** What answers lookups once the file is walked. */
interface EntityIndex {
  offsetOf(id: number): number;
  /** What it holds, as plain data. */
  data(): StepEntityOffsetsData;
  /** Each id with its offset. */
  forEach(visit: (id: number, offset: number) => void): void;
  readonly heldBytes: number;
}

/** Offset by id, one slot an id: 4 bytes each (the offset + 1, 0 for none), 8 for a file past 4 GiB. */
class DenseIndex implements EntityIndex {
  constructor(private readonly table: Uint32Array | Float64Array) {}

  static of(ids: Float64Array, offsets: Float64Array, count: number, maxId: number, maxOffset: number): DenseIndex {
    const table = maxOffset < 0xffff_fffe ? new Uint32Array(maxId + 1) : new Float64Array(maxId + 1);
    for (let i = 0; i < count; i++) table[ids[i]!] = offsets[i]! + 1;
    return new DenseIndex(table);
  }

  data(): StepEntityOffsetsData {
    return { kind: 'dense', table: this.table };
  }

  get heldBytes(): number {
    return this.table.byteLength;
  }

  offsetOf(id: number): number {
    return id >= 0 && id < this.table.length ? (this.table[id] ?? 0) - 1 : -1;
  }

  forEach(visit: (id: number, offset: number) => void): void {
    this.table.forEach((slot, id) => slot > 0 && visit(id, slot - 1));
  }
}

/** Sparse ids in file order, ascending: found by bisection. */
class SortedIndex implements EntityIndex {
  constructor(
    private readonly ids: Float64Array,
    private readonly offsets: Float64Array,
  ) {}

  get heldBytes(): number {
    return this.ids.byteLength + this.offsets.byteLength;
  }

  data(): StepEntityOffsetsData {
    return { kind: 'sorted', ids: this.ids, offsets: this.offsets };
  }

  offsetOf(id: number): number {
    let lo = 0,
      hi = this.ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.ids[mid]!;
      if (v === id) return this.offsets[mid]!; // ascending means strictly increasing: no duplicates
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  forEach(visit: (id: number, offset: number) => void): void {
    this.ids.forEach((id, i) => visit(id, this.offsets[i]!));
  }
}

/** Sparse ids out of order. */
class MapIndex implements EntityIndex {
  constructor(private readonly map: Map<number, number>) {}

  readonly heldBytes = 0;

  data(): StepEntityOffsetsData {
    return { kind: 'map', map: this.map };
  }

  offsetOf(id: number): number {
    return this.map.get(id) ?? -1;
  }

  forEach(visit: (id: number, offset: number) => void): void {
    this.map.forEach((offset, id) => visit(id, offset));
  }
}

function grow(a: Float64Array): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(a.length * 2);
  bigger.set(a);
  return bigger;
}
