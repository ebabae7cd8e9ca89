import { asDependencyOutage } from './dependency-outage.js';
import { isAppError, type AppError } from './index.js';
import { asUnstorableText } from './unstorable-text.js';

/**
 * The catalogue error an error stands for: itself when it is one, else what a dependency's own
 * error means for the client (an outage: 503; text Postgres cannot store: 400); null for a bug.
 * REST and GraphQL both render errors through this.
 */
export function knownError(err: unknown): AppError | null {
  if (isAppError(err)) return err;
  return asDependencyOutage(err) ?? asUnstorableText(err);
}
