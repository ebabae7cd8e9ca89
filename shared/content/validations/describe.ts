import { ruleOf, type Bounds, type Validation } from './rules.js';

const bounds = (b: Bounds<number | string>, unit = '') =>
  b.min !== undefined && b.max !== undefined ? `${b.min}–${b.max}${unit}` : b.min !== undefined ? `at least ${b.min}${unit}` : `at most ${b.max}${unit}`;

/** One rule in words, as the GraphQL schema's field descriptions say it. */
function describeRule(v: Validation): string {
  if ('unique' in v) return 'unique among the entries of the model';
  if ('pattern' in v) return `matches /${v.pattern.regex}/${v.pattern.flags ?? ''}`;
  if ('size' in v) return `size ${bounds(v.size)}`;
  if ('range' in v) return `range ${bounds(v.range)}`;
  if ('in' in v) return `one of ${v.in.map((x) => JSON.stringify(x)).join(', ')}`;
  if ('assetTypes' in v) return `asset types ${v.assetTypes.join(', ')}`;
  const parts = (['width', 'height'] as const).flatMap((d) => (v.imageSize[d] ? [`${d} ${bounds(v.imageSize[d], ' px')}`] : []));
  return `image ${parts.join(', ')}`;
}

/** `Validations: unique …; size 3–80.` for a field's description; null when it has no rules. */
export function describeValidations(validations: readonly Validation[] | undefined): string | null {
  if (!validations || validations.length === 0) return null;
  return `Validations: ${validations.map((v) => `${ruleOf(v)} (${describeRule(v)})`).join('; ')}.`;
}
