// Builds the console (`vite build` of apps/web into apps/web/dist) unless apps/web/dist was built by this script from
// the same sources: `npm run build` and `npm run test:e2e` both need a current console, and CI runs one after the other,
// so the second found the first's build and spent half a minute of the 2-core machine making it again.
//
// "The same sources": a SHA-256 over the name and bytes of every file git knows or would add (tracked, or untracked and
// not ignored) under apps/web and packages/contracts, the lockfile, the root package.json and tsconfig.base.json, plus
// the build's environment variables (BUNDLE_REPORT, VITE_*). It is kept with the size and modification time of the
// index.html that build wrote, in node_modules/.cache (never served, never committed): a dist written by anything else
// (a `vite build` run by hand) does not match, and is built again. `--force` always builds.
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const index = join(root, 'apps/web/dist/index.html');
const stampFile = join(root, 'node_modules/.cache/tessera-web-build.json');
const INPUTS = ['apps/web', 'packages/contracts', 'package-lock.json', 'package.json', 'tsconfig.base.json'];

/** The SHA-256 (hex) of the console's sources and build environment, as described above. */
function sourcesDigest() {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', ...INPUTS], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  })
    .toString()
    .split('\0')
    .filter(Boolean)
    .sort();
  const digest = createHash('sha256');
  for (const file of files) {
    const path = join(root, file);
    // A file deleted but not yet staged is listed by git and absent: its absence is part of the digest.
    digest
      .update(file)
      .update('\0')
      .update(existsSync(path) ? readFileSync(path) : 'deleted')
      .update('\0');
  }
  for (const [name, value] of Object.entries(process.env).sort(([a], [b]) => a.localeCompare(b))) {
    if (name === 'BUNDLE_REPORT' || name.startsWith('VITE_')) digest.update(`${name}=${value}\0`);
  }
  return digest.digest('hex');
}

/** The index.html of the current build as the stamp records it, or null without a build. */
function builtIndex() {
  if (!existsSync(index)) return null;
  const { size, mtimeMs } = statSync(index);
  return { size, mtimeMs };
}

const force = process.argv.includes('--force');
const digest = sourcesDigest();
const stamp = existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')) : null;
const built = builtIndex();
if (!force && stamp?.digest === digest && built !== null && stamp.index?.size === built.size && stamp.index?.mtimeMs === built.mtimeMs) {
  console.log('build-web: apps/web/dist is current (same sources as its build), not built again');
  process.exit(0);
}
const result = spawnSync('npm', ['run', 'build', '-w', '@tessera/web'], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
mkdirSync(dirname(stampFile), { recursive: true });
writeFileSync(stampFile, JSON.stringify({ digest, index: builtIndex() }));
