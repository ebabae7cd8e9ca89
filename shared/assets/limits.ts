/** Hard limits of the image pipeline. */
export const MAX_INPUT_PIXELS = 50_000_000;
export const MAX_OUTPUT_SIDE = 8192;
/** The largest coordinate a pixel cut may name: 65,535, JPEG's largest side (a pixel cut is checked against the source too). */
export const MAX_INPUT_SIDE = 65_535;
/**
 * Pixels one derivative may have (the input limit): an enlargement to 8192×8192 (67 MP) took a
 * worker minutes and gigabytes for one URL. Larger requests are refused before any work.
 */
export const MAX_OUTPUT_PIXELS = 50_000_000;
export const DEFAULT_QUALITY = 80;
/** The highest frame index `fr_N` may name. */
export const MAX_FRAME = 999;
/**
 * `q_auto`: per output format, the quality whose PSNR against the source matches JPEG at 80.
 * Measured on the repository's two photographs at 1200 pixels (JPEG 80: 39.0 and 39.6 dB): WebP
 * 75 gives 38.9/40.0 dB at 16 KB where WebP 80 takes 20 KB; AVIF 40 gives 39.4/42.6 dB at 8–9 KB
 * where 50 (sharp's default) takes 12–13 KB. JPEG keeps 80. PNG and GIF are lossless here.
 */
export const AUTO_QUALITY = { jpeg: 80, webp: 75, avif: 40 } as const;
/** Bytes read ahead of an upload to sniff its type and read image headers before storing it. */
export const HEADER_PREFIX_BYTES = 1024 * 1024;
/**
 * How far an image's header is looked for when it is not in the first bytes: past this the
 * upload is refused as unreadable, so at most this much of one upload is ever held in memory.
 */
export const HEADER_EXTENDED_BYTES = 16 * 1024 * 1024;
