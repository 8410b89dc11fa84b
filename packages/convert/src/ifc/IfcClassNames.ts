import type { IfcAPI } from 'web-ifc';

/**
 * The IFC class of entities as web-ifc names them (`IfcWallStandardCase`), each asked once. Read
 * while web-ifc holds the model ({@link of}); once it is closed ({@link close}) only the classes
 * read before are known: a large model's web-ifc heap is let go before the budget's work, so
 * every class the scene names must be read first.
 *
 * @example
 * ```ts
 * const classes = new IfcClassNames(api, model);
 * classes.of(wall); // → 'IfcWall'
 * classes.close();
 * ```
 */
export class IfcClassNames {
  private readonly names = new Map<number, string>();
  private api: IfcAPI | undefined;

  constructor(
    api: IfcAPI,
    private readonly model: number,
  ) {
    this.api = api;
  }

  /** The class of entity `id`; after {@link close}, only of an entity read before. */
  of(id: number): string {
    let name = this.names.get(id);
    if (name !== undefined) return name;
    if (!this.api) throw new Error(`the IFC class of #${id} was not read before web-ifc let the model go`);
    name = this.api.GetNameFromTypeCode(this.api.GetLineType(this.model, id));
    this.names.set(id, name);
    return name;
  }

  /** Reads the class of each of `ids` now. */
  read(ids: Iterable<number>): void {
    for (const id of ids) this.of(id);
  }

  /** web-ifc is closing the model: keeps no reference to it. */
  close(): void {
    this.api = undefined;
  }
}
