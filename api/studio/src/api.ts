// The Studio's one way to the API: Folio's public REST routes, with the session cookie and, on a
// write, the session's CSRF token (the folio_csrf cookie) in X-CSRF-Token.

/** A refused call: the HTTP status and the envelope's readable reasons. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: string[],
  ) {
    super(errors[0] ?? `HTTP ${status}`);
  }
}

export interface Envelope<T> {
  success: boolean;
  errors: string[];
  messages: string[];
  result: T;
  resultInfo: { totalCount: number; pageIndex: number; pageSize: number; totalPages: number; hasNextPage: boolean; hasPreviousPage: boolean } | null;
}

export function csrfToken(): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === 'folio_csrf') return decodeURIComponent(value.join('='));
  }
  return undefined;
}

export async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Envelope<T>> {
  const h: Record<string, string> = { accept: 'application/json', ...headers };
  if (body !== undefined) h['content-type'] = 'application/json';
  if (method !== 'GET') {
    const csrf = csrfToken();
    if (csrf) h['x-csrf-token'] = csrf;
  }
  const res = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  const text = await res.text();
  let parsed: Envelope<T> | null = null;
  try {
    parsed = JSON.parse(text) as Envelope<T>;
  } catch {
    // not JSON: a proxy's or the server's plain error page
  }
  if (!res.ok || !parsed || parsed.success === false) throw new ApiError(res.status, parsed?.errors?.length ? parsed.errors : [text.slice(0, 200) || `HTTP ${res.status}`]);
  return parsed;
}

export const get = <T>(path: string) => call<T>('GET', path).then((e) => e.result);
export const m = (path: string) => `/management/v1${path}`;
