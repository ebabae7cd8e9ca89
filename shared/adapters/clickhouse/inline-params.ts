import type { QueryParams } from './analytics-store.js';

/** A ClickHouse string literal: quotes, backslashes and NUL escaped, everything else as it is. */
export const stringLiteral = (text: string): string => `'${text.replace(/[\\'\0]/g, (c) => (c === '\0' ? '\\0' : `\\${c}`))}'`;

/** A value as the text ClickHouse parses for its type (what a server-side binding receives). */
function valueText(name: string, value: QueryParams[string]): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`query parameter ${name} is not a finite number`);
    return String(value);
  }
  return `[${value.map(stringLiteral).join(',')}]`;
}

/**
 * The statement with its `{name:Type}` placeholders replaced by literals of their type: a String
 * as a quoted literal, any other type as `CAST('text' AS Type)`, which the engine folds to a
 * constant before it plans (primary-key ranges and LIMIT take it as they take a bound value).
 *
 * chDB binds parameters behind one process-wide lock (bound statements racing inside the engine
 * corrupt each other), so every statement with parameters waits for the one before it, whoever
 * sent it; statements without parameters run side by side. Every value is escaped as a literal
 * and the text is scanned once, so a value that looks like a placeholder stays a value.
 */
export function inlineParams(sql: string, params: QueryParams | undefined): string {
  return sql.replace(/\{([A-Za-z_][A-Za-z0-9_]*):([^{}]+)\}/g, (_, name: string, type: string) => {
    if (!params || !Object.hasOwn(params, name)) throw new Error(`query parameter ${name} is not set`);
    const literal = stringLiteral(valueText(name, params[name]));
    return type.trim() === 'String' ? literal : `CAST(${literal} AS ${type})`;
  });
}
