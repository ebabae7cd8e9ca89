/** Hard limits of the image pipeline. */
export const MAX_INPUT_PIXELS = 50_000_000;
export const MAX_OUTPUT_SIDE = 8192;
/**
 * Pixels one derivative may have (the input limit): an enlargement to 8192×8192 (67 MP) took a
 * worker minutes and gigabytes for one URL. Larger requests are refused before any work.
 */
export const MAX_OUTPUT_PIXELS = 50_000_000;
export const DEFAULT_QUALITY = 80;
/** Bytes read ahead of an upload to sniff its type and read image headers before storing it. */
export const HEADER_PREFIX_BYTES = 1024 * 1024;
/**
 * How far an image's header is looked for when it is not in the first bytes: past this the
 * upload is refused as unreadable, so at most this much of one upload is ever held in memory.
 */
export const HEADER_EXTENDED_BYTES = 16 * 1024 * 1024;
