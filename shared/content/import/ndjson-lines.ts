/** One non-blank line of an NDJSON body; `line` is 1-based, counting blank lines too. */
export interface NdjsonLine {
  line: number;
  text: string;
  /** Set instead of `text` when the line is longer than the limit (it is skipped, not buffered). */
  tooLong?: true;
}

export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/**
 * Splits a byte stream into lines without holding more than one line (plus one chunk) in
 * memory, so an import of any size streams through. Lines may end in \n or \r\n. Line ends are
 * found in the bytes (a \n byte is never part of a multi-byte UTF-8 character) and only a whole
 * line is decoded, so each byte is looked at once: a line that grows over many chunks (a body of
 * zeros, say) costs its length, not its length squared.
 */
export async function* ndjsonLines(source: AsyncIterable<Buffer | string>, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<NdjsonLine> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNo = 0;
  let skipping = false;
  const emit = (bytes: Buffer): NdjsonLine | null => {
    lineNo++;
    if (skipping) {
      skipping = false;
      return { line: lineNo, text: '', tooLong: true };
    }
    const text = bytes.toString('utf8');
    const trimmed = text.endsWith('\r') ? text.slice(0, -1) : text;
    return trimmed.trim() === '' ? null : { line: lineNo, text: trimmed };
  };
  const take = (tail: Buffer): Buffer => {
    const line = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    pending = [];
    pendingBytes = 0;
    return line;
  };
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let nl = bytes.indexOf(10); nl !== -1; nl = bytes.indexOf(10, start)) {
      const out = emit(take(bytes.subarray(start, nl)));
      if (out) yield out;
      start = nl + 1;
    }
    if (start < bytes.length) {
      pending.push(bytes.subarray(start));
      pendingBytes += bytes.length - start;
    }
    if (pendingBytes > maxLineBytes) {
      // Drop the oversize line's bytes; remember to report it when its end arrives.
      skipping = true;
      pending = [];
      pendingBytes = 0;
    }
  }
  if (pendingBytes > 0 || skipping) {
    const out = emit(take(Buffer.alloc(0)));
    if (out) yield out;
  }
}
