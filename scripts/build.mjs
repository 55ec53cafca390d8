// `npm run build`: the production build (docs/deployment.md "Install").
//
// 1. The console: `vite build` of apps/web into apps/web/dist (it compiles the contracts it imports).
// 2. The server: esbuild bundles apps/server/src/main.ts with the workspace packages it imports (@tessera/contracts,
//    @tessera/device-sim) into one ES module, apps/server/dist/main.js, which plain `node` runs (and the device HTTP
//    port's worker thread into apps/server/dist/device-http-thread.js). npm packages stay
//    outside the bundle (imported from node_modules at run time) and must be runtime `dependencies` of the server or
//    of a workspace package it imports: the build fails naming any that is not, because `npm ci --omit=dev` would not
//    install it.
//
// Files the server reads at run time (migrations in apps/server/drizzle, the console in apps/web/dist) are found
// relative to the source module that names them (`new URL('../../drizzle', import.meta.url)`). In the bundle every
// module shares one `import.meta.url`, so each module's `import.meta.url` is rewritten to the address of its source
// file relative to the bundle: the paths resolve as they do under tsx, and the built tree (this repository with the
// two dist folders) can be moved as a whole.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = join(root, 'apps/server');
const outFile = join(serverDir, 'dist/main.js');
/** The workspace packages bundled into the server. */
const bundledWorkspaces = ['packages/contracts', 'apps/device-sim'];

/** Runtime dependencies of a package.json, by name. */
function runtimeDependencies(dir) {
  const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  return Object.keys(manifest.dependencies ?? {});
}

/** The npm package a bare import specifier names: `drizzle-orm/pg-core` → `drizzle-orm`, `@a/b/c` → `@a/b`. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`build: ${command} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

const started = performance.now();

console.log('build: console (vite build) → apps/web/dist');
run('node', [join(root, 'scripts/build-web.mjs')], root);

console.log('build: server (esbuild) → apps/server/dist/main.js');
rmSync(join(serverDir, 'dist'), { recursive: true, force: true });
const allowed = new Set([...runtimeDependencies('apps/server'), ...bundledWorkspaces.flatMap(runtimeDependencies)]);
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const undeclared = new Set();

/** npm packages stay external; records any that no runtime `dependencies` list declares. */
const externalPackages = {
  name: 'tessera-external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (builtins.has(args.path) || args.path.startsWith('@tessera/')) return undefined;
      if (!allowed.has(packageName(args.path))) undeclared.add(`${packageName(args.path)} (imported by ${relative(root, args.importer)})`);
      return { path: args.path, external: true };
    });
  },
};

/** Each module's `import.meta.url` becomes its source file's address, relative to the bundle (see the header). */
const sourceModuleUrls = {
  name: 'tessera-source-module-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const fromBundle = relative(dirname(outFile), args.path).split('\\').join('/');
      const url = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

const result = await esbuild.build({
  // The process, and the device HTTP port's worker thread (app/device-http.ts starts dist/device-http-thread.js when
  // TESSERA_BUNDLED is true, the TypeScript source otherwise).
  entryPoints: { main: join(serverDir, 'src/main.ts'), 'device-http-thread': join(serverDir, 'src/app/device-http-thread.ts') },
  outdir: dirname(outFile),
  define: { TESSERA_BUNDLED: 'true' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  sourcemap: 'linked',
  // No `keepNames`: no code reads a function's name, and no class is renamed in the bundle (error classes set `name`).
  logLevel: 'warning',
  metafile: true,
  plugins: [externalPackages, sourceModuleUrls],
});
if (undeclared.size > 0) {
  console.error(`build: the server imports packages no runtime "dependencies" declares:\n  ${[...undeclared].join('\n  ')}`);
  process.exit(1);
}
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(
  `build: done in ${((performance.now() - started) / 1000).toFixed(1)} s ` +
    `(server bundle ${(bytes / 1024 / 1024).toFixed(1)} MiB with its source map; run it with \`npm run start:prod\`)`,
);
