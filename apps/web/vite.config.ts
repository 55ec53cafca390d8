/**
 * Vite config of the console. Builds to apps/web/dist (served by the server); in dev, proxies the API
 * prefixes, the live channel (/mqtt, a WebSocket) and the docs to the server on :8080.
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const SERVER = process.env.TESSERA_SERVER ?? 'http://localhost:8080';
const httpPrefixes = ['/authorization', '/frontstage', '/frontstage-ts', '/healthz', '/docs', '/openapi.json'];

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // antd alone is ~280 KB gzip; route chunks stay small, so only warn above antd's size.
    chunkSizeWarningLimit: 1200,
  },
  server: {
    proxy: {
      ...Object.fromEntries(httpPrefixes.map((p) => [p, { target: SERVER, changeOrigin: true }])),
      '/mqtt': { target: SERVER, ws: true, changeOrigin: true },
    },
  },
});
