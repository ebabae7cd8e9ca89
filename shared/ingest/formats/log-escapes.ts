/**
 * Undoes the escaping of an nginx or Apache log field: nginx writes `"`, `\` and every byte
 * below 0x20 or above 0x7E as `\xHH` (so `/café` is logged `/caf\xC3\xA9`), Apache writes `\"`,
 * `\\` and `\xhh`. The escapes are turned back into the bytes they stand for and the whole field
 * read as UTF-8 (a byte sequence that is not UTF-8 becomes U+FFFD, as anywhere else text is
 * decoded). A backslash before anything else keeps the character after it.
 */
export function decodeLogEscapes(field: string): string {
  if (!field.includes('\\')) return field;
  const parts: Buffer[] = [];
  let i = 0;
  while (i < field.length) {
    const slash = field.indexOf('\\', i);
    if (slash === -1 || slash === field.length - 1) {
      parts.push(Buffer.from(field.slice(i), 'utf8'));
      break;
    }
    parts.push(Buffer.from(field.slice(i, slash), 'utf8'));
    const hex = /^x([0-9a-fA-F]{2})/.exec(field.slice(slash + 1, slash + 4));
    if (hex) {
      parts.push(Buffer.of(parseInt(hex[1], 16)));
      i = slash + 4;
    } else {
      // `\"`, `\\`: the character after the backslash (a whole code point)
      const next = String.fromCodePoint(field.codePointAt(slash + 1)!);
      parts.push(Buffer.from(next, 'utf8'));
      i = slash + 1 + next.length;
    }
  }
  return Buffer.concat(parts).toString('utf8');
}
