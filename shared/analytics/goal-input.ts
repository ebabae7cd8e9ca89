import { z } from 'zod';
import { checkPathPattern } from './path-pattern.js';

// The bodies of goals and funnels: names and path patterns (see path-pattern.ts).

const pattern = z.string().superRefine((v, ctx) => {
  try {
    checkPathPattern(v, 'path');
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a path pattern starting with / (* within a segment, ** across segments; at most 2,048 characters, without query string or fragment)' });
  }
});
const name = z.string().trim().min(1).max(200);

export const goalInputSchema = z.strictObject({ name, path: pattern });
export type GoalInput = z.output<typeof goalInputSchema>;

/** A funnel of 2 to 8 steps: fewer is a goal, more is not read in one pass within the time target. */
export const funnelInputSchema = z.strictObject({ name, steps: z.array(pattern).min(2).max(8) });
export type FunnelInput = z.output<typeof funnelInputSchema>;
