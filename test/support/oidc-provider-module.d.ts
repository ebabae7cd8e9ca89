// oidc-provider ships no types; this declares the part of its API the test identity provider uses.
declare module 'oidc-provider' {
  import type { Server } from 'node:http';

  interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>>;
  }

  interface ProviderConfiguration {
    clients?: Record<string, unknown>[];
    findAccount?: (ctx: unknown, id: string) => Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    pkce?: { required?: () => boolean };
    features?: Record<string, { enabled: boolean }>;
    cookies?: { keys?: string[] };
    [key: string]: unknown;
  }

  class Provider {
    constructor(issuer: string, configuration?: ProviderConfiguration);
    listen(port: number, host: string, callback?: () => void): Server;
    proxy: boolean;
  }

  export default Provider;
}
