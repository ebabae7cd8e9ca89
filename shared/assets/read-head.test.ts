import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readHead } from './read-head.js';

const chunks = (n: number, size: number) => Readable.from(Array.from({ length: n }, (_, i) => Buffer.alloc(size, i)));
const drain = async (r: Readable) => {
  const out: Buffer[] = [];
  for await (const c of r) out.push(c as Buffer);
  return Buffer.concat(out);
};

describe('readHead', () => {
  it('returns the head and the whole body again', async () => {
    const h = await readHead(chunks(10, 100), { headBytes: 250, maxBytes: 10_000 });
    expect([h.head.length, h.complete]).toEqual([250, false]);
    const body = await drain(h.body);
    expect(body.length).toBe(1000);
    expect(body[999]).toBe(9);
    expect(h.bytes()).toBe(1000);
  });

  it('knows when the head is everything', async () => {
    const h = await readHead(chunks(2, 100), { headBytes: 1000, maxBytes: 10_000 });
    expect([h.head.length, h.complete]).toEqual([200, true]);
    expect((await drain(h.body)).length).toBe(200);
  });

  it('refuses bodies over the limit with 413, in the head or later', async () => {
    await expect(readHead(chunks(10, 100), { headBytes: 5000, maxBytes: 500 })).rejects.toMatchObject({ status: 413 });
    const h = await readHead(chunks(10, 100), { headBytes: 100, maxBytes: 500 });
    await expect(drain(h.body)).rejects.toMatchObject({ status: 413 });
  });

  it('reads further on request, and the body still holds every byte once', async () => {
    const h = await readHead(chunks(10, 100), { headBytes: 150, maxBytes: 10_000 });
    expect(h.head.length).toBe(150);
    const longer = await h.extend(450);
    expect([longer.length, h.head.length, h.complete]).toEqual([450, 450, false]);
    expect(longer[449]).toBe(4);
    await h.extend(5000);
    expect([h.head.length, h.complete]).toEqual([1000, true]);
    const body = await drain(h.body);
    expect(body.length).toBe(1000);
    expect([...new Set(body)]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await expect(h.extend(2000)).rejects.toThrow(/after the body/);
  });

  it('applies the byte limit to a longer head as well', async () => {
    const h = await readHead(chunks(10, 100), { headBytes: 100, maxBytes: 500 });
    await expect(h.extend(800)).rejects.toMatchObject({ status: 413 });
  });
});
