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
 * memory, so an import of any size streams through. Lines may end in \n or \r\n.
 */
export async function* ndjsonLines(source: AsyncIterable<Buffer | string>, maxLineBytes = MAX_LINE_BYTES): AsyncGenerator<NdjsonLine> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let lineNo = 0;
  let skipping = false;
  const emit = (text: string): NdjsonLine | null => {
    lineNo++;
    if (skipping) {
      skipping = false;
      return { line: lineNo, text: '', tooLong: true };
    }
    const trimmed = text.endsWith('\r') ? text.slice(0, -1) : text;
    return trimmed.trim() === '' ? null : { line: lineNo, text: trimmed };
  };
  for await (const chunk of source) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    let nl: number;
    while ((nl = pending.indexOf('\n', start)) !== -1) {
      const out = emit(pending.slice(start, nl));
      if (out) yield out;
      start = nl + 1;
    }
    pending = pending.slice(start);
    if (pending.length > maxLineBytes) {
      // Drop the oversize line's text; remember to report it when its end arrives.
      skipping = true;
      pending = '';
    }
  }
  pending += decoder.decode();
  if (pending !== '' || skipping) {
    const out = emit(pending);
    if (out) yield out;
  }
}
