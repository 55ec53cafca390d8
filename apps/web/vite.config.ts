/**
 * Vite config of the console. Builds to apps/web/dist (served by the server); in dev, proxies the API
 * prefixes, the live channel (/mqtt, a WebSocket) and the docs to the server on :8080.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const SERVER = process.env.TESSERA_SERVER ?? 'http://localhost:8080';
const httpPrefixes = ['/authorization', '/frontstage', '/frontstage-ts', '/healthz', '/docs', '/openapi.json', '/pages'];

const MEDIA_TYPES: Record<string, string> = { '.png': 'image/png', '.svg': 'image/svg+xml', '.gif': 'image/gif', '.cur': 'image/x-icon' };

/**
 * Blockly's media (sprites, cursors, icons) served by the console itself at /blockly-media/, where the rule editor
 * (features/project-rules) points Blockly: by default Blockly loads them from the internet. Sounds are off, so no audio.
 */
function blocklyMedia(): Plugin {
  const dir = join(dirname(createRequire(import.meta.url).resolve('blockly')), 'media');
  const files = readdirSync(dir).filter((f) => extname(f) in MEDIA_TYPES);
  return {
    name: 'tessera-blockly-media',
    configureServer(server) {
      server.middlewares.use('/blockly-media', (req, res, next) => {
        const name = (req.url ?? '').split('?')[0].replace(/^\//, '');
        if (!files.includes(name)) return next();
        res.setHeader('Content-Type', MEDIA_TYPES[extname(name)]);
        res.end(readFileSync(join(dir, name)));
      });
    },
    generateBundle() {
      for (const f of files) this.emitFile({ type: 'asset', fileName: `blockly-media/${f}`, source: readFileSync(join(dir, f)) });
    },
  };
}

export default defineConfig({
  plugins: [react(), blocklyMedia()],
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
