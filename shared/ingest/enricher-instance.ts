import { createEnricher, type Enricher } from './enrich.js';

let instance: Promise<Enricher> | undefined;

/** One enricher per process: the GeoIP database is opened once and the agent cache is shared. */
export function sharedEnricher(): Promise<Enricher> {
  instance ??= createEnricher();
  return instance;
}
