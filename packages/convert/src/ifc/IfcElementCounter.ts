// A STEP file's element count, read from its text as it streams past: no web-ifc, no entity kept.

enum State {
  Normal,
  String,
  Slash,
  Comment,
  CommentStar,
  AfterEquals,
  Name,
  AfterName,
}

/** Entity names that are longer than this are no type we count; collecting stops there. */
const LONGEST_NAME = 32;
const QUOTE = 0x27,
  SLASH = 0x2f,
  STAR = 0x2a,
  EQUALS = 0x3d,
  OPEN = 0x28;

/**
 * Counts, in an IFC's STEP text fed chunk by chunk, the instances that say how many elements it
 * draws: every product with a shape has one `IFCPRODUCTDEFINITIONSHAPE`, less the openings (cut
 * away, not drawn) and spaces (not drawn) that have one too. On corpus files this is exactly the
 * number of elements a conversion reads. Strings and comments are skipped, whitespace and letter
 * case are as STEP allows, and a chunk may end anywhere. What a session's budget shares need to
 * know before anything is converted (see the server's `budgetShares`).
 *
 * @example
 * ```ts
 * const counter = new IfcElementCounter();
 * for await (const chunk of createReadStream('house.ifc')) counter.feed(chunk);
 * counter.elements(); // → 215
 * ```
 */
export class IfcElementCounter {
  private state = State.Normal;
  private name = '';
  private shapes = 0;
  private openings = 0;
  private spaces = 0;

  /** Reads the next bytes of the text. */
  feed(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      switch (this.state) {
        case State.String:
          // A quote inside a string is doubled: closing and reopening reads it right.
          if (c === QUOTE) this.state = State.Normal;
          continue;
        case State.Comment:
          if (c === STAR) this.state = State.CommentStar;
          continue;
        case State.CommentStar:
          this.state = c === SLASH ? State.Normal : c === STAR ? State.CommentStar : State.Comment;
          continue;
        case State.Slash:
          if (c === STAR) {
            this.state = State.Comment;
            continue;
          }
          break;
        case State.AfterEquals:
          if (isSpace(c)) continue;
          if (isNameStart(c)) {
            this.name = String.fromCharCode(c & ~0x20);
            this.state = State.Name;
            continue;
          }
          break;
        case State.Name:
          if (isNamePart(c)) {
            if (this.name.length <= LONGEST_NAME) this.name += String.fromCharCode(c >= 0x61 ? c - 0x20 : c);
            continue;
          }
          if (isSpace(c)) {
            this.state = State.AfterName;
            continue;
          }
          if (c === OPEN) this.count();
          break;
        case State.AfterName:
          if (isSpace(c)) continue;
          if (c === OPEN) this.count();
          break;
      }
      // Normal text, or a byte that ended what the states above were reading.
      this.state = c === QUOTE ? State.String : c === SLASH ? State.Slash : c === EQUALS ? State.AfterEquals : State.Normal;
    }
  }

  /** Elements with a shape: product shapes less openings and spaces, never below 0. */
  elements(): number {
    return Math.max(0, this.shapes - this.openings - this.spaces);
  }

  private count(): void {
    if (this.name === 'IFCPRODUCTDEFINITIONSHAPE') this.shapes++;
    else if (this.name === 'IFCOPENINGELEMENT' || this.name === 'IFCOPENINGSTANDARDCASE') this.openings++;
    else if (this.name === 'IFCSPACE') this.spaces++;
  }
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isNameStart(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

function isNamePart(c: number): boolean {
  return isNameStart(c) || (c >= 0x30 && c <= 0x39);
}
