import type { Services } from '../shared/services.js';
import { registerEcho } from './echo.js';
import { registerImageTransform } from './image-transform.js';
import { registerLogIngest } from './log-ingest.js';
import { registerScheduledPublish } from './scheduled-publish.js';

/** The one list of job handlers this process runs. */
export function registerWorkers(services: Services): void {
  registerEcho(services);
  registerImageTransform(services);
  registerLogIngest(services);
  registerScheduledPublish(services);
}
