import type pg from 'pg';

/** Runs one hand-written statement: unnamed (pg's default) or as a named prepared statement. */
export type Run = (text: string, values: unknown[]) => Promise<pg.QueryResult>;
