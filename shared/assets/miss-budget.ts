import { badRequest, rateLimited } from '../errors/index.js';
import type { Services } from '../services.js';
import type { DerivativeSource } from './derivative-source.js';
import { outputSize, pixelBudgetProblem } from './transform-plan.js';
import type { ImagePathParts } from './url-grammar.js';

export type MissBudgetDeps = Pick<Services, 'config' | 'rateLimiter' | 'metrics'>;

/**
 * A miss starts work (a worker decodes and encodes the image): refused when the output would
 * be over the pixel budget of one image (400), or when the organization has used its minute's
 * budget of transform megapixels (429 with Retry-After; hits are never limited).
 */
export async function chargeMiss(deps: MissBudgetDeps, parts: ImagePathParts, source: DerivativeSource['size']): Promise<void> {
  const size = source ? outputSize(parts.ops, source) : null;
  const problem = size ? pixelBudgetProblem(size) : null;
  if (problem) throw badRequest(`Image operations: ${problem}.`);
  const megapixels = size ? Math.max(1, Math.ceil((size.width * size.height) / 1_000_000)) : 1;
  const budget = deps.config.imageMissBudget;
  const decision = await deps.rateLimiter.consume(`img-miss:${parts.orgId}`, megapixels, budget);
  if (!decision.allowed) {
    deps.metrics.imageMissesRefused.inc();
    throw rateLimited(decision.retryAfterSeconds, `This organization has started ${budget.burst} megapixels of image transforms in the last minute; retry later (cached images are not limited).`);
  }
}
