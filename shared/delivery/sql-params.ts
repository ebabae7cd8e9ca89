/**
 * Collects bind parameters while SQL is assembled: `add(v)` returns the placeholder (`$n`).
 * Values never reach SQL text; only field aliases (validated identifiers) are inlined, quoted
 * with `lit()`.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A SQL string literal (for field aliases used as jsonb keys). */
export const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** Escapes LIKE wildcards so user text matches literally (ESCAPE is the default backslash). */
export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export const and = (parts: string[]): string => (parts.length === 0 ? 'TRUE' : parts.length === 1 ? parts[0] : `(${parts.join(' AND ')})`);
export const or = (parts: string[]): string => (parts.length === 0 ? 'FALSE' : parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`);
