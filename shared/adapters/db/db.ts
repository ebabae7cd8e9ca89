

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface QueryOptions {
  /**
   * The statement's text is one of a bounded set (no values spliced in) and one generic plan
   * suits all its values: the server may keep it parsed and planned per connection (a named
   * prepared statement on Postgres).
   */
  prepare?: boolean;
  /**
   * A timer's statement, on no request's behalf (re-reading the suspended organizations): left
   * out of `stats`, which tests read to count what a request costs.
   */
  background?: boolean;
}

/** Something that runs SQL: the database itself, or one transaction of it. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
  /** Runs a script of several statements without parameters (migrations, DDL). */
  exec(sql: string): Promise<void>;
  /**
   * Hands `payload` to this process's own listeners of `channel` once what ran here has committed
   * (at once outside a transaction, never after a rollback). For a NOTIFY that a trigger sends:
   * the process that wrote knows before its write returns, where the server's delivery of the
   * same notification comes a moment later. Listeners therefore take a payload twice.
   */
  echoOnCommit(channel: string, payload: string): void;
}

/**
 * The relational store. Both implementations return the same JS types: int8 as number,
 * numeric as string, timestamptz as Date, json/jsonb parsed, arrays as arrays.
 */
export interface Db extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `fn` in one transaction on one connection; rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Statements run so far, but `background` ones (tests assert constant query counts with it). */
  readonly stats: { queries: number };
  ping(): Promise<void>;
  /**
   * Calls `onNotify(payload)` for each `NOTIFY channel` that commits (Postgres delivers it at
   * COMMIT, never for a rollback; the payload is '' when there is none), and `onNotify()` without
   * one when the listener is in place, first and after each reconnection, since notifications
   * sent while the listener was away are lost; `onLost` when its connection drops. Resolves to
   * the function that stops listening.
   */
  listen(channel: string, onNotify: (payload?: string) => void, onLost?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * Settings every transaction starts with (`SET LOCAL`, sent with its BEGIN), read from the caller's
 * context when it begins — e.g. `folio.actor`, the token whose request writes, which the
 * version-history triggers record. Names are dotted lowercase identifiers.
 */
export type TransactionSettings = () => Readonly<Record<string, string>> | undefined;

/** `SELECT set_config(…)` statements for `settings`, as SQL text (values quoted, names checked). */
export function setLocalSql(settings: Readonly<Record<string, string>>): string {
  return Object.entries(settings)
    .map(([name, value]) => {
      if (!/^[a-z_]+\.[a-z_]+$/.test(name)) throw new Error(`invalid transaction setting name "${name}"`);
      return `SELECT set_config('${name}', '${value.replace(/'/g, "''").replace(/\0/g, '')}', true);`;
    })
    .join(' ');
}

/** This process's listeners by channel, which `echoOnCommit` calls (one registry per Db). */
export function localChannels() {
  const listeners = new Map<string, Set<(payload: string) => void>>();
  return {
    add(channel: string, listener: (payload: string) => void): () => void {
      let set = listeners.get(channel);
      if (!set) listeners.set(channel, (set = new Set()));
      set.add(listener);
      return () => void set.delete(listener);
    },
    deliver,
    /** A Queryable's `echoOnCommit`: into a transaction's `echoes` (delivered after its COMMIT), or at once. */
    echoer: (echoes?: Array<[string, string]>) => (channel: string, payload: string) => {
      if (echoes) echoes.push([channel, payload]);
      else deliver(channel, payload);
    },
  };
  function deliver(channel: string, payload: string): void {
    for (const l of listeners.get(channel) ?? []) l(payload);
  }
}

/** A channel name safe to splice into LISTEN: a plain lowercase identifier. */
export function checkChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid LISTEN channel "${channel}"`);
  return channel;
}
