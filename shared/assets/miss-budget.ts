import type { Hold } from '../adapters/rate-limit/index.js';
import { badRequest, rateLimited } from '../errors/index.js';
import type { Services } from '../services.js';
import type { DerivativeSource } from './derivative-source.js';
import { pixelCropOutside } from './image-ops.js';
import { estimateTransformMs } from './transform-cost.js';
import { outputSize, pixelBudgetProblem } from './transform-plan.js';
import type { ImagePathParts } from './url-grammar.js';

export type MissBudgetDeps = Pick<Services, 'config' | 'rateLimiter' | 'metrics'>;

/**
 * A miss starts work (a worker decodes and encodes the image), admitted in three steps:
 * - refused (400) when the output would be over the pixel budget of one image;
 * - refused (429, Retry-After) while the organization's transforms in flight use its share of
 *   the transform workers (their estimated time, `imageTransformShareMs`): one organization's
 *   backlog then waits at its own door, and the queue all organizations share never holds more
 *   than a share of it, so another organization's first miss finds a worker;
 * - refused (429) when the organization has used its minute's budget of transform megapixels
 *   (the output's, and an overlay's source, which is decoded whole).
 * Hits are never limited. The returned hold is the miss's part of the share: release it when
 * its job has settled (it expires after `holdMs` if this process dies first).
 */
export async function admitMiss(deps: MissBudgetDeps, parts: ImagePathParts, derivative: Pick<DerivativeSource, 'size' | 'overlaySize'>, holdMs: number): Promise<Hold> {
  const source = derivative.size;
  const outside = source && parts.ops.cropPixels ? pixelCropOutside(parts.ops.cropPixels, source) : null;
  if (outside) throw badRequest(`Image operation "cp": ${outside}.`);
  const size = source ? outputSize(parts.ops, source) : null;
  const problem = size ? pixelBudgetProblem(size) : null;
  if (problem) throw badRequest(`Image operations: ${problem}.`);

  const costMs = estimateTransformMs(parts.ops.format, source, size, parts.ops, derivative.overlaySize);
  const share = deps.config.imageTransformShareMs;
  const hold = await deps.rateLimiter.hold(`img-share:${parts.orgId}`, costMs, share, holdMs);
  if (!hold) {
    deps.metrics.imageMissesRefused.inc();
    throw rateLimited(
      Math.max(1, Math.ceil(Math.min(costMs, share) / 1000)),
      `This organization's image transforms in progress use its share of the transform workers (${share / 1000} s of estimated work); retry later (cached images are not limited).`,
    );
  }

  // An overlay is decoded at its own size before it is scaled down: its pixels count like the output's.
  const layer = parts.ops.overlay ? (derivative.overlaySize ?? { width: 1000, height: 1000 }) : { width: 0, height: 0 };
  const pixels = (size ? size.width * size.height : 1_000_000) + layer.width * layer.height;
  const megapixels = Math.max(1, Math.ceil(pixels / 1_000_000));
  const budget = deps.config.imageMissBudget;
  const decision = await deps.rateLimiter.consume(`img-miss:${parts.orgId}`, megapixels, budget);
  if (!decision.allowed) {
    await hold.release();
    deps.metrics.imageMissesRefused.inc();
    throw rateLimited(decision.retryAfterSeconds, `This organization has started ${budget.burst} megapixels of image transforms in the last minute; retry later (cached images are not limited).`);
  }
  return hold;
}
