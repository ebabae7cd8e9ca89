import { LRUCache } from 'lru-cache';
import * as oidc from 'openid-client';
import { unprocessable } from '../../errors/index.js';
import { issuerFetch } from './issuer-fetch.js';
import type { SsoSettings } from './sso-settings-repository.js';

// The organization's issuer through `openid-client`: discovery (cached per settings version),
// the authorization URL with PKCE, and the code exchange with every check the library makes
// (state, nonce, PKCE, the ID token's signature, issuer, audience and expiry).

/** Seconds an issuer has to answer discovery, the token and the userinfo request. */
const TIMEOUT_SECONDS = 10;

const configurations = new LRUCache<string, oidc.Configuration>({ max: 1000, ttl: 10 * 60_000 });

export interface IssuerOptions {
  /** Accept an `http:` issuer (development and tests). */
  allowHttp: boolean;
  /** Accept issuers on loopback, private and other reserved addresses (an issuer on a private network). */
  allowPrivate: boolean;
}

/** One guarded fetch per setting (each keeps its own connection pool). */
const fetches = new Map<boolean, oidc.CustomFetch>();
const fetchFor = (allowPrivate: boolean): oidc.CustomFetch => {
  let f = fetches.get(allowPrivate);
  if (!f) fetches.set(allowPrivate, (f = issuerFetch(allowPrivate)));
  return f;
};

/** The deployment's issuer options. */
export const issuerOptionsOf = (config: { ssoAllowHttpIssuers: boolean; ssoAllowPrivateIssuers: boolean }): IssuerOptions => ({
  allowHttp: config.ssoAllowHttpIssuers,
  allowPrivate: config.ssoAllowPrivateIssuers,
});

/** What went wrong, from an openid-client error: its own message is generic, its cause says which check or request failed. */
export const failureReason = (err: unknown): string => {
  const e = err as Error;
  return e.cause instanceof Error ? e.cause.message : e.message;
};

/** Why `issuer` cannot be an issuer URL here, or null. */
export function issuerProblem(issuer: string, options: Pick<IssuerOptions, 'allowHttp'>): string | null {
  const url = new URL(issuer);
  if (url.protocol !== 'https:' && !(options.allowHttp && url.protocol === 'http:')) {
    return options.allowHttp ? 'issuer: an http(s) URL' : 'issuer: an https URL (SSO_ALLOW_HTTP_ISSUERS=true accepts http, for development)';
  }
  if (url.username || url.password) return 'issuer: no credentials in the URL';
  if (url.search || url.hash) return 'issuer: no query or fragment';
  return null;
}

/** The issuer's configuration for this client; 422 when discovery fails. */
export async function issuerConfiguration(
  settings: Pick<SsoSettings, 'orgId' | 'issuer' | 'clientId' | 'clientSecret' | 'updatedAt'>,
  options: IssuerOptions,
): Promise<oidc.Configuration> {
  const key = `${settings.orgId}:${settings.updatedAt.getTime()}:${settings.issuer}:${settings.clientId}`;
  const cached = configurations.get(key);
  if (cached) return cached;
  const insecure = options.allowHttp && settings.issuer.startsWith('http:');
  let config: oidc.Configuration;
  try {
    config = await oidc.discovery(new URL(settings.issuer), settings.clientId, undefined, oidc.ClientSecretBasic(settings.clientSecret), {
      timeout: TIMEOUT_SECONDS,
      execute: insecure ? [oidc.allowInsecureRequests] : [],
      [oidc.customFetch]: fetchFor(options.allowPrivate),
    });
  } catch (err) {
    // the library's message names what failed (a status, a mismatched issuer); never the secret
    throw unprocessable(`The issuer ${settings.issuer} could not be discovered: ${failureReason(err)}`);
  }
  config.timeout = TIMEOUT_SECONDS;
  config[oidc.customFetch] = fetchFor(options.allowPrivate);
  configurations.set(key, config);
  return config;
}

/** What a sign-in attempt must remember until the callback (kept in the browser, signed). */
export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export async function authorizationUrl(config: oidc.Configuration, redirectUri: string): Promise<{ url: URL; pending: PendingSignIn }> {
  const pending = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email profile',
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
    code_challenge_method: 'S256',
  });
  return { url, pending };
}

export type Claims = Record<string, unknown>;

/**
 * Exchanges the code of `callbackUrl` (the redirect URI with the issuer's query) and returns the
 * person's claims: the ID token's, completed by the userinfo endpoint when the issuer has one
 * (many issuers put email and groups only there).
 */
export async function exchangeCode(config: oidc.Configuration, callbackUrl: URL, pending: PendingSignIn): Promise<Claims> {
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: pending.codeVerifier,
    expectedState: pending.state,
    expectedNonce: pending.nonce,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new Error('the token response has no ID token');
  const userinfo = config.serverMetadata().userinfo_endpoint ? await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub) : {};
  return { ...userinfo, ...idClaims } as Claims;
}
