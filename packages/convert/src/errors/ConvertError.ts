/**
 * Base of every error the converter raises on bad input. Each carries a stable `code`, the request
 * field it concerns (the uploaded file's form field by default) and the offending file's name, so
 * the server can map it to problem+json without inspecting messages.
 */
export class ConvertError extends Error {
  readonly code: string;
  readonly field: string;
  readonly fileName: string | undefined;

  constructor(code: string, message: string, options: { field?: string; fileName?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.field = options.field ?? 'model_file';
    this.fileName = options.fileName;
  }
}

/** The bytes are not an IFC, GLB or USDZ model (recognised by content, never by name). */
export class UnsupportedFormatError extends ConvertError {
  constructor(message: string, options: { field?: string; fileName?: string } = {}) {
    super('unsupported_format', message, options);
  }
}

/** The file claims a supported format but cannot be read: truncated, corrupt, or rejected by the parser. */
export class ModelUnreadableError extends ConvertError {
  constructor(message: string, options: { field?: string; fileName?: string; cause?: unknown } = {}) {
    super('model_unreadable', message, options);
  }
}

/** A GLB has more mesh nodes than an AR client can take (see {@link MESH_NODE_LIMIT}). */
export class MeshNodeLimitError extends ConvertError {
  readonly count: number;
  readonly limit: number;

  constructor(count: number, limit: number, options: { field?: string; fileName?: string } = {}) {
    const who = options.fileName ? `${options.fileName} has` : 'the GLB has';
    super('mesh_node_limit', `${who} ${count} mesh nodes; at most ${limit} are allowed per GLB file (instances count one each)`, options);
    this.count = count;
    this.limit = limit;
  }
}

/** A USDZ package breaks an ARKit package rule that repacking cannot fix. */
export class UsdzPackageError extends ConvertError {
  /** The rule broken, e.g. `first_entry_not_usd`, `unsupported_reference`, `unencapsulated_reference`, `too_large`. */
  readonly rule: string;

  constructor(rule: string, message: string, options: { field?: string; fileName?: string } = {}) {
    super('usdz_package_invalid', message, options);
    this.rule = rule;
  }
}

/**
 * A model whose geometry needs more memory than a conversion is allowed: refused while it is read
 * (IFC geometry is counted as web-ifc streams it), before the process runs short.
 */
export class ModelTooLargeError extends ConvertError {
  /** Bytes of geometry held when the reading stopped (at least this much is needed). */
  readonly count: number;
  /** The bytes of geometry a conversion may hold. */
  readonly limit: number;

  constructor(count: number, limit: number, options: { field?: string; fileName?: string } = {}) {
    const mb = (b: number) => `${Math.ceil(b / 2 ** 20)} MB`;
    const who = options.fileName ?? 'the model';
    super(
      'model_too_large',
      `${who}: its geometry needs more than ${mb(limit)} of memory (${mb(count)} held when reading ` +
        `stopped), over what one conversion may use; split the model, or raise the conversion memory bound`,
      options,
    );
    this.count = count;
    this.limit = limit;
  }
}

/**
 * A conversion that ran out of the memory its worker process may use (the operating system's
 * bound, `ConversionPoolOptions.memoryLimitMb`): the worker was stopped mid-conversion, and only
 * that model is refused. Everything the conversion allocated counts — WASM heaps, buffers and
 * inflated entries as well as the JavaScript heap.
 */
export class ConversionMemoryError extends ConvertError {
  /** The bytes one conversion's process may use. */
  readonly limit: number;

  constructor(limit: number, options: { field?: string; fileName?: string } = {}) {
    const who = options.fileName ?? 'the model';
    super(
      'model_too_large',
      `${who}: its conversion needed more than the ${Math.round(limit / 2 ** 20)} MB of memory one ` +
        `conversion may use, and was stopped; split the model, or raise the conversion memory bound`,
      options,
    );
    this.limit = limit;
  }
}
