import type { AssetType } from './types.js';

/**
 * The content type of an upload, decided from its first bytes (never from the client's header,
 * which a browser or script may get wrong or forge). Unknown binary data is
 * application/octet-stream; markup other than SVG is text/plain, so it is never served as a page.
 */
export interface SniffedType {
  contentType: string;
  type: AssetType;
}

const startsWith = (b: Buffer, bytes: number[], at = 0) => bytes.every((v, i) => b[at + i] === v);
const ascii = (b: Buffer, from: number, to: number) => b.subarray(from, to).toString('latin1');

const FTYP_BRANDS: Record<string, string> = {
  avif: 'image/avif',
  avis: 'image/avif',
  heic: 'image/heic',
  heix: 'image/heic',
  mif1: 'image/heif',
  msf1: 'image/heif',
  'qt  ': 'video/quicktime',
  'M4A ': 'audio/mp4',
  'M4B ': 'audio/mp4',
};

function sniffContentType(b: Buffer): string {
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(b, 0, 4) === 'RIFF') {
    const kind = ascii(b, 8, 12);
    if (kind === 'WEBP') return 'image/webp';
    if (kind === 'WAVE') return 'audio/wav';
    if (kind === 'AVI ') return 'video/x-msvideo';
  }
  if (ascii(b, 4, 8) === 'ftyp') return FTYP_BRANDS[ascii(b, 8, 12)] ?? 'video/mp4';
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])) return ascii(b, 0, 64).includes('webm') ? 'video/webm' : 'video/x-matroska';
  if (ascii(b, 0, 4) === 'OggS') return 'audio/ogg';
  if (ascii(b, 0, 4) === 'fLaC') return 'audio/flac';
  if (ascii(b, 0, 3) === 'ID3' || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0 && b.length > 2)) return 'audio/mpeg';
  if (ascii(b, 0, 5) === '%PDF-') return 'application/pdf';
  if (startsWith(b, [0x50, 0x4b, 0x03, 0x04])) return 'application/zip';
  if (isText(b)) return isSvg(b) ? 'image/svg+xml' : 'text/plain; charset=utf-8';
  return 'application/octet-stream';
}

function isText(b: Buffer): boolean {
  const head = b.subarray(0, 8192);
  if (head.length === 0 || head.includes(0)) return false;
  // A cut may split the last UTF-8 sequence; drop up to 3 trailing bytes before validating.
  for (let cut = 0; cut < 4 && cut < head.length; cut++) {
    if (new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, head.length - cut)).includes('\uFFFD') === false) return true;
  }
  return false;
}

/** The root element is <svg>, after an optional BOM, XML declaration, comments and doctype. */
function isSvg(b: Buffer): boolean {
  const text = b.subarray(0, 8192).toString('utf8').replace(/^\uFEFF/, '');
  const rest = text.replace(/^(\s|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*/i, '');
  return /^<svg[\s>]/i.test(rest);
}

export function assetTypeOf(contentType: string): AssetType {
  if (contentType.startsWith('image/')) return 'IMAGE';
  if (contentType.startsWith('video/')) return 'VIDEO';
  if (contentType.startsWith('audio/')) return 'AUDIO';
  return 'FILE';
}

export function sniffType(head: Buffer): SniffedType {
  const contentType = sniffContentType(head);
  return { contentType, type: assetTypeOf(contentType) };
}
