/**
 * A worker process for the webhook crash test: the product's own services and job registrations
 * (dispatcher and deliveries), in the test's queue namespace. Configuration comes from the
 * environment like any worker; the namespace from FOLIO_TEST_NAMESPACE.
 */
import { loadConfig } from '../../shared/config.js';
import { createLogger } from '../../shared/logger.js';
import { createServices } from '../../shared/services.js';
import { registerWorkers } from '../../workers/register.js';

const config = loadConfig(process.env);
const services = await createServices(config, createLogger(config.logLevel), { namespace: process.env.FOLIO_TEST_NAMESPACE });
registerWorkers(services);
process.send?.('ready');
