/**
 * What a purge target sends in request headers must be a valid header value (RFC 9110 field
 * values: visible ASCII, spaces and tabs — no CR or LF, which would split the request, and no
 * other control character): Node refuses such a header when the purge is sent, so a target
 * saved with one could never deliver. An API token travels as a header value too (Fastly-Key,
 * Authorization), without spaces.
 */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
const TOKEN = /^[\x21-\x7e]+$/;

/** The problems of the header values and API token of a purge target's input (or patch). */
export function headerValueProblems(input: { headers?: Record<string, string>; apiToken?: string }): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(input.headers ?? {})) {
    if (!HEADER_VALUE.test(value)) problems.push(`headers.${name}: a header value holds visible ASCII characters, spaces and tabs only (no CR, LF or other control characters)`);
  }
  if (input.apiToken !== undefined && !TOKEN.test(input.apiToken)) problems.push('apiToken: visible ASCII characters only (no spaces, CR, LF or other control characters)');
  return problems;
}
