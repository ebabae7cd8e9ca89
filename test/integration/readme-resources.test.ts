import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { authorInputSchema, labelInputSchema, listInputSchema, sectionInputSchema } from '../../shared/content/resource-input.js';
import { projectRoot } from '../../shared/paths.js';

/** The README's table of section, author, label and list fields is the API's: the same names, the same required ones. */
const SCHEMAS: Record<string, z.ZodObject> = {
  '/sections': sectionInputSchema,
  '/authors': authorInputSchema,
  '/labels': labelInputSchema,
  '/lists': listInputSchema,
};

describe('README: sections, authors, labels, lists', () => {
  const readme = readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
  it.each(Object.entries(SCHEMAS))('%s lists exactly the fields the API takes', (resource, schema) => {
    const row = readme.split('\n').find((l) => l.startsWith(`| \`${resource}\` |`));
    expect(row, `README row for ${resource}`).toBeDefined();
    const documented = [...row!.split('|')[2].matchAll(/`(\w+)`( \(required\))?/g)].map((m) => `${m[1]}${m[2] ? '*' : ''}`).sort();
    const taken = Object.entries(schema.shape).map(([name, field]) => `${name}${(field as z.ZodType).isOptional() ? '' : '*'}`).sort();
    expect(documented).toEqual(taken);
  });
});
