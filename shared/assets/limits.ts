/** Hard limits of the image pipeline (DESIGN §5). */
export const MAX_INPUT_PIXELS = 50_000_000;
export const MAX_OUTPUT_SIDE = 8192;
export const DEFAULT_QUALITY = 80;
/** Bytes read ahead of an upload to sniff its type and read image headers before storing it. */
export const HEADER_PREFIX_BYTES = 1024 * 1024;
