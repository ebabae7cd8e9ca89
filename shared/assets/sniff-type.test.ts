import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { sniffType } from './sniff-type.js';
import { svgSize } from './svg-size.js';

const fixture = (name: string) => readFile(new URL(`../../test/fixtures/images/${name}`, import.meta.url));

describe('sniffType', () => {
  it('recognises the fixtures from their bytes', async () => {
    expect(sniffType(await fixture('the-mouse.jpg'))).toEqual({ contentType: 'image/jpeg', type: 'IMAGE' });
    expect(sniffType(await fixture('goldfish.png'))).toEqual({ contentType: 'image/png', type: 'IMAGE' });
    expect(sniffType(await fixture('clip.mp4'))).toEqual({ contentType: 'video/mp4', type: 'VIDEO' });
  });

  it.each([
    ['GIF89a....', 'image/gif'],
    ['RIFF\0\0\0\0WEBPVP8 ', 'image/webp'],
    ['RIFF\0\0\0\0WAVEfmt ', 'audio/wav'],
    ['\0\0\0\x1cftypavif', 'image/avif'],
    ['\0\0\0\x1cftypqt  ', 'video/quicktime'],
    ['\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01webm', 'video/webm'],
    ['OggS\0', 'audio/ogg'],
    ['ID3\x04', 'audio/mpeg'],
    ['%PDF-1.7\n', 'application/pdf'],
    ['PK\x03\x04', 'application/zip'],
    ['II*\0', 'image/tiff'],
    ['\uFEFF<?xml version="1.0"?><!-- c --><!DOCTYPE svg><svg xmlns="x"/>', 'image/svg+xml'],
    ['<html><svg></svg></html>', 'text/plain; charset=utf-8'],
    ['plain words', 'text/plain; charset=utf-8'],
    ['\0\x01\x02\x03binary', 'application/octet-stream'],
  ])('%j → %s', (text, contentType) => {
    const bytes = [...text].some((c) => c.charCodeAt(0) > 0xff) ? Buffer.from(text, 'utf8') : Buffer.from(text, 'latin1');
    expect(sniffType(bytes).contentType).toBe(contentType);
  });
});

describe('svgSize', () => {
  it('reads width/height or the viewBox, never anything else', () => {
    expect(svgSize(Buffer.from('<svg width="120px" height="80"/>'))).toEqual({ width: 120, height: 80 });
    expect(svgSize(Buffer.from('<svg viewBox="0 0 300 150"/>'))).toEqual({ width: 300, height: 150 });
    expect(svgSize(Buffer.from('<svg width="100%"/>'))).toBeNull();
  });
});
