import { badRequest } from '../../errors/index.js';

/**
 * Where a sign-in may send the browser afterwards: a path of this deployment, or an absolute URL
 * of its own origin (PUBLIC_BASE_URL). Anything else (another host, `//host`, `/\host`, a
 * `javascript:` URL) would make the sign-in an open redirect, so it is refused.
 */
export function checkedReturnTo(returnTo: string | undefined, publicBaseUrl: string): string {
  if (returnTo === undefined || returnTo === '') return '/auth/me';
  const base = new URL(publicBaseUrl);
  let target: URL;
  try {
    target = new URL(returnTo, base);
  } catch {
    throw badRequest('returnTo: a path or URL of this deployment.');
  }
  const relative = returnTo.startsWith('/') && !returnTo.startsWith('//') && !returnTo.startsWith('/\\');
  if (target.origin !== base.origin || (!relative && !/^https?:\/\//i.test(returnTo))) {
    throw badRequest(`returnTo: must be a path or URL of this deployment (${base.origin}).`);
  }
  return target.pathname + target.search + target.hash;
}
