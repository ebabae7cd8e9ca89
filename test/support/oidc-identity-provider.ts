import type { Server } from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './free-port.js';

/**
 * A real OpenID Connect provider (`oidc-provider`) in the test's process, on a free port, with its
 * development login and consent pages: any login signs in as the account of that name, and the
 * login is the account's email. Accounts whose local part starts with `editor` are in the
 * `folio-editors` group (the `groups` claim, in the profile scope). PKCE is required.
 */
export interface TestIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function startIdentityProvider(redirectUri: string): Promise<TestIdentityProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'folio-test';
  const clientSecret = 'folio-test-secret-' + Math.random().toString(36).slice(2);
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    async findAccount(_ctx: unknown, id: string) {
      return {
        accountId: id,
        async claims() {
          return { sub: id, email: id, email_verified: true, name: id.split('@')[0], groups: id.startsWith('editor') ? ['folio-editors'] : ['staff'] };
        },
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['test-cookie-key-' + clientSecret] },
  });
  const server: Server = await new Promise((resolve) => {
    const s = provider.listen(port, '127.0.0.1', () => resolve(s));
  });
  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
