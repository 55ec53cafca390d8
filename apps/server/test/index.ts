/**
 * @tessera/server/testing: the integration harness and fixtures, for the e2e tests and the benchmarks: a real server
 * over a scratch database, account and device factories, fake internet services (LINE, SMTP, a push service), and
 * a PostgreSQL proxy for fault runs.
 */
export * from './helpers.js';
export * from './factories.js';
export * from './device-factory.js';
export * from './tenants.js';
export * from './until.js';
export * from './fake-line.js';
export * from './fake-push-service.js';
export * from './pg-proxy.js';
export * from './device-load.js';
export * from './floods.js';
export * from './demo-rule.js';
export * from './rabbitmq.js';
export * from './spawn-server.js';
export * from '../src/modules/mail/smtp-sink.fixture.js';
export * from '../src/modules/images/png.fixture.js';
export * from '../src/modules/projects/catalogue.fixtures.js';
export * from '../src/modules/alerts/alerts.fixtures.js';
export * from '../src/modules/line/line.fixtures.js';
export * from './fake-openai.js';
export * from '../src/modules/telemetry-store/migration-fixture.js';
export * from './tls-fixture.js';
export * from './mosquitto.js';
