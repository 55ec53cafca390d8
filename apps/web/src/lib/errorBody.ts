/**
 * The error body's schema, in a chunk of its own: lib/http.ts loads it when an answer is an error, so the login page
 * does not download zod to draw (docs/web-bundle.md).
 */
export { ZErrorBody } from '@tessera/contracts';
