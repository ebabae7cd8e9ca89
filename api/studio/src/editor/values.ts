import type { Field } from '../types';

// Widgets edit a field's stored value (see the model's field types); these helpers turn it into
// what an input holds and back.

/** `2026-11-28T15:04:00.000Z` → the `datetime-local` value of that instant in the browser's zone. */
export function toLocalInput(iso: unknown): string {
  if (typeof iso !== 'string' || iso === '') return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function fromLocalInput(value: string): string | null {
  if (value === '') return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** A list shown as comma-separated text. */
export const listText = (v: unknown): string => (Array.isArray(v) ? v.map(String).join(', ') : '');
export const splitList = (s: string): string[] =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

/** The label of a field: its name, else its alias. */
export const labelOf = (f: Field): string => f.name ?? f.alias;

/**
 * The model's validation problems by the path of the value they are about, after `fields.`
 * (a locale's values, `locales.de-DE.summary`, under `summary@de-DE`):
 * `fields.title: required` under `title`, `fields.tags[2]: …` under `tags` (a list's item is shown
 * on its list), `fields.body[0].cta.target: …` under `body[0].cta.target` (a component's field,
 * shown on that nested field); the rest (about the entry as a whole) under ''.
 */
export function problemsByPath(problems: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of problems) {
    const m = /^(?:fields|locales\.([A-Za-z0-9-]+))\.([A-Za-z_][A-Za-z0-9_]*)([A-Za-z0-9_.[\]]*?)(?:\[\d+\])?: (.*)$/s.exec(p);
    // a locale's value is keyed `alias@code`, as its widget is
    const key = m ? `${m[2]}${m[1] ? `@${m[1]}` : ''}${m[3]}` : '';
    out.set(key, [...(out.get(key) ?? []), m ? m[4] : p]);
  }
  return out;
}
