#!/usr/bin/env bash
# Copies what a production install needs, after `npm run build`, into the directory $1 (created; must not exist):
# the root package.json and package-lock.json, the package.json of the workspaces the server runs (contracts, server,
# device-sim), the server bundle (apps/server/dist), its migrations (apps/server/drizzle) and the built console
# (apps/web/dist). In it, `npm ci --omit=dev` installs the runtime dependencies only (no tsx, TypeScript, Vite or
# test tools: the other workspaces are not there) and `npm run start:prod` starts the server (docs/deployment.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="${1:?usage: scripts/release-tree.sh <new directory>}"
if [ -e "$dest" ]; then
  echo "release-tree: $dest exists; give a new directory" >&2
  exit 1
fi
for built in apps/server/dist/main.js apps/web/dist/index.html; do
  if [ ! -f "$root/$built" ]; then
    echo "release-tree: $built is missing; run \`npm run build\` first" >&2
    exit 1
  fi
done
mkdir -p "$dest"
cd "$root"
cp --parents package.json package-lock.json packages/contracts/package.json apps/server/package.json \
  apps/device-sim/package.json "$dest/"
cp -r --parents apps/server/dist apps/server/drizzle apps/web/dist "$dest/"
