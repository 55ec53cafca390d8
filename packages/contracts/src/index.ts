/** @tessera/contracts: the one source of request/response schemas, limits and device-protocol helpers. */
export * from './api-paths.js';
export * from './auth.js';
export * from './devices.js';
export * from './errors.js';
export * from './features.js';
export * from './health.js';
export * from './images.js';
export * from './limits.js';
export * from './pagination.js';
export * from './products.js';
export * from './project-settings.js';
export * from './projects.js';
export * from './protocol.js';
export * from './sensors.js';
export * from './status-word.js';
export * from './tangram-id.js';
export * from './telemetry.js';
