/**
 * `@tessera/contracts/mini`: the schemas the console checks on its hot path (live messages, dashboard widget
 * parameters), written with valibot (one module per check) so that the pages that use them load no zod (docs/web-bundle.md). Each
 * mirrors a classic schema of the package, which the server and every other page keep using.
 */
export * from './dashboard-mini.js';
export * from './live-mini.js';
