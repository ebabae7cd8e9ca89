import { describe, expect, it } from 'vitest';
import { ndjsonLines } from './ndjson-lines.js';

async function collect(chunks: (string | Buffer)[], max?: number) {
  const out = [];
  for await (const l of ndjsonLines((async function* () { yield* chunks; })(), max)) out.push(l);
  return out;
}

describe('ndjsonLines', () => {
  it('splits across chunk boundaries, skips blank lines but counts them, handles CRLF and a last line without newline', async () => {
    expect(await collect(['{"a":', '1}\r\n\n{"b"', ':2}\n', '{"c":3}'])).toEqual([
      { line: 1, text: '{"a":1}' },
      { line: 3, text: '{"b":2}' },
      { line: 4, text: '{"c":3}' },
    ]);
  });
  it('decodes multi-byte characters split between chunks', async () => {
    const bytes = Buffer.from('{"t":"é"}\n');
    expect(await collect([bytes.subarray(0, 7), bytes.subarray(7)])).toEqual([{ line: 1, text: '{"t":"é"}' }]);
  });
  it('reports an oversize line without buffering it', async () => {
    expect(await collect(['{"a":1}\n', 'x'.repeat(20), 'y'.repeat(20), '\n{"b":2}\n'], 16)).toEqual([
      { line: 1, text: '{"a":1}' },
      { line: 2, text: '', tooLong: true },
      { line: 3, text: '{"b":2}' },
    ]);
  });
});
