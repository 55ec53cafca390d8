/**
 * Vite config of the console. Builds to apps/web/dist (served by the server); in dev, proxies the API
 * prefixes, the live channel (/mqtt, a WebSocket) and the docs to the server on :8080.
 *
 * What a phone downloads (docs/web-bundle.md): every route is its own chunk (lib/lazyPage), each language's strings are
 * one chunk loaded on demand (i18n/index.ts), and every emitted text file gets a brotli (`.br`) and a gzip (`.gz`)
 * sibling that the server sends to a browser that accepts it (apps/server/src/app/console-static.ts).
 * `BUNDLE_REPORT=1` also writes the bundle visualiser's report of what each chunk holds to apps/web/bundle-report/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { defineConfig, type Plugin, type PluginOption } from 'vite';
import { compression } from 'vite-plugin-compression2';

const SERVER = process.env.TESSERA_SERVER ?? 'http://localhost:8080';
const httpPrefixes = ['/authorization', '/frontstage', '/frontstage-ts', '/healthz', '/docs', '/openapi.json', '/pages'];

const MEDIA_TYPES: Record<string, string> = { '.png': 'image/png', '.svg': 'image/svg+xml', '.gif': 'image/gif', '.cur': 'image/x-icon' };

/**
 * Modules without side effects at import: the contracts package and antd's building blocks (@rc-component/*, whose
 * packages do not say so themselves), so a page's chunks carry only what it renders.
 */
const PURE_MODULES = /[\\/](packages[\\/]contracts[\\/]src|node_modules[\\/]@rc-component)[\\/]/;

/** antd's form context (`antd/es/form/context.js`) and the import of rc-form's it makes. */
const ANTD_FORM_CONTEXT = /[\\/]node_modules[\\/]antd[\\/]es[\\/]form[\\/]context\.js$/;
const RC_FORM_INDEX_IMPORT = "import { FormProvider as RcFormProvider } from '@rc-component/form';";

/**
 * antd's form context imports rc-form's `FormProvider` from the package's index, which builds rc-form's `Form` and
 * assigns `Form.Field`, `Form.List`, `Form.useForm`… at its top level: the bundler keeps those assignments, and with
 * them rc-form's whole form (fields, lists, async-validator, about 10 KB br) in every page that draws a tooltip,
 * drawer, menu, modal or input, all of which import the context. This points that one import at the module that
 * defines `FormProvider` (`@rc-component/form/es/FormContext`, a named export; its default is the context); pages with antd's Form still get
 * rc-form through the Form. Fails the build if antd's file no longer has the import, so an antd upgrade is noticed.
 */
function antdFormContextDirect(): Plugin {
  return {
    name: 'tessera-antd-form-context-direct',
    transform(code, id) {
      if (!ANTD_FORM_CONTEXT.test(id)) return null;
      if (!code.includes(RC_FORM_INDEX_IMPORT)) this.error(`${id} no longer imports rc-form's FormProvider as expected`);
      return {
        code: code.replace(RC_FORM_INDEX_IMPORT, "import { FormProvider as RcFormProvider } from '@rc-component/form/es/FormContext';"),
        map: null,
      };
    },
  };
}

/** Files below this size (bytes) are sent as they are: a compressed sibling would save less than a packet. */
const COMPRESS_ABOVE_BYTES = 1024;

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

/** The bundle visualiser's reports (an interactive treemap and a markdown list), written only when asked for. */
function bundleReport(): PluginOption[] {
  if (process.env.BUNDLE_REPORT !== '1') return [];
  const out = (name: string) => join(import.meta.dirname, 'bundle-report', name);
  return [
    visualizer({ filename: out('treemap.html'), template: 'treemap', gzipSize: true, brotliSize: true }),
    visualizer({ filename: out('stats.json'), template: 'raw-data', gzipSize: true, brotliSize: true }),
  ];
}

export default defineConfig({
  plugins: [
    react(),
    antdFormContextDirect(),
    blocklyMedia(),
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: COMPRESS_ABOVE_BYTES }),
    ...bundleReport(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // antd alone is ~280 KB gzip; route chunks stay small, so only warn above antd's size.
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the first page needs before any route loads (React, the router, i18next, antd's provider and
            // style engine, the shell) in one chunk: a phone then makes one request for it instead of a dozen, each
            // with its own response headers and round trip.
            { name: 'boot', tags: ['$initial'], priority: 2 },
            // zod in a chunk of its own, loaded only by the pages that check with it (not by /login's first paint nor by
            // the dashboard, whose live messages and widget parameters are checked with @tessera/contracts/mini).
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/, priority: 1 },
            // What the sign-in page and the logged-in layout both import (the HTTP client, the language switch, antd's
            // button, alert, flex box, segmented switch and tooltip with what they import, antd's form context among
            // it; antd's status and fallback helpers, rc-component's focus lock and TanStack Query's mutations, which
            // the sign-in form shares with the drawer and the pages) in a chunk of its own, taken before `signin`: a logged-in page then loads no sign-in-only code (the
            // form, its frame, antd's inputs), and the sign-in page pays one request more for it.
            {
              name: 'common',
              test: /[\\/](src[\\/]lib[\\/]http\.ts$|src[\\/]components[\\/]LanguageSwitch\.tsx$|node_modules[\\/](antd[\\/]es[\\/](button|alert|flex|segmented|tooltip)[\\/]index\.js$|antd[\\/]es[\\/]_util[\\/](statusUtils|fallbackProp)\.js$|@rc-component[\\/]util[\\/]es[\\/]Dom[\\/]focus\.js$|@tanstack[\\/]react-query[\\/]build[\\/]modern[\\/]useMutation\.js$))/,
              priority: 1,
            },
            // The sign-in page with the rest of what it imports that the entry does not hold (the form, its frame, antd's
            // inputs, the QR sign-in's loader): one request instead of about ten; logged-in pages do not load it.
            // Splitting it by the pages that use each module (rolldown's `entriesAware`) made ten chunks and saved the
            // dashboard nothing: every page that imports antd's barrel reaches every antd module (docs/web-bundle.md).
            { name: 'signin', test: /[\\/]src[\\/]features[\\/]auth[\\/]LoginPage\.tsx$/, priority: 1 },
            // The logged-in layout with everything it imports that neither chunk above holds (side menu, drawer, header,
            // account menu, antd's App, the live channel): every logged-in page draws it, so grouping it costs none of
            // them a byte, and the sign-in page's modules were taken by the group above first.
            { name: 'shell', test: /[\\/]src[\\/]app[\\/](AppLayout|AntAppOutlet)\.tsx$/, priority: 1 },
            // The dashboard's widget frame and widget bodies (features/dashboard/widgets): one request instead of about ten.
            // Not the widgets with a library of their own (ECharts: gauge, line and bar, platform; antd's Descriptions:
            // status): in the group, the group's chunk imported ECharts, so every dashboard loaded it, charts or none.
            // Only those modules, not what they import (which other pages share: the device API, antd's tag, ECharts),
            // so no other page loads this chunk. The route's own module stays out: with it in, rolldown's chunk for the
            // lazy route exported a name the group's chunk did not define.
            {
              name: 'dashboard',
              test: /[\\/]src[\\/]features[\\/]dashboard[\\/](components[\\/]WidgetFrame\.tsx|widgets[\\/](?!(Status|Gauge|Chart|Platform)Widget))/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
      treeshake: {
        // The contracts package is zod schemas and pure functions: a page's chunk then carries only the schemas it
        // uses, instead of the login page loading every schema of the API (top-level `z.object(...)` calls look
        // side-effectful to the bundler otherwise).
        moduleSideEffects: (id) => (PURE_MODULES.test(id) ? false : undefined),
      },
    },
  },
  server: {
    proxy: {
      ...Object.fromEntries(httpPrefixes.map((p) => [p, { target: SERVER, changeOrigin: true }])),
      '/mqtt': { target: SERVER, ws: true, changeOrigin: true },
    },
  },
});
