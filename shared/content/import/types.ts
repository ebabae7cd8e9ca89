import type { StoredModel } from '../model-repository.js';

export const LINE_TYPES = ['site', 'locale', 'component', 'model', 'asset', 'section', 'author', 'label', 'entry', 'list'] as const;
export type LineType = (typeof LINE_TYPES)[number];

export type LineResult =
  | { line: number; type: string; ok: true; id: string }
  | { line: number; type: string; ok: false; errors: string[] };

/** What one import run remembers between lines. */
export interface ImportState {
  orgId: string;
  /** Entries written by earlier lines of this import: id → model alias (references may use them). */
  entries: Map<string, string>;
  /** Models by alias; dropped when a model line changes them. */
  models: Map<string, StoredModel | null>;
}

export interface ImportReport {
  lines: number;
  succeeded: number;
  failed: number;
  /** Per-line results; see `truncated`. */
  results: LineResult[];
  /** True when ok results (beyond MAX_LISTED_RESULTS) or failures (beyond MAX_LISTED_FAILURES) were left out. */
  truncated: boolean;
}

/** Up to this many lines, every result is listed; beyond it only failures are. */
export const MAX_LISTED_RESULTS = 10_000;
export const MAX_LISTED_FAILURES = 1_000;
