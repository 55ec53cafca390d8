#!/usr/bin/env bash
# Regenerates the not-yet-landed migration of the current issue from apps/server/src/db/schema*.ts: drops the
# migrations after 0000 from the journal, then `drizzle-kit generate --name <NAME>` writes the whole diff again.
# Under flock so that two people editing the schema at once do not interleave. Usage: scripts/regen-migration.sh NAME
set -euo pipefail
cd "$(dirname "$0")/../apps/server"
name="${1:?usage: regen-migration.sh NAME}"
exec 9>/tmp/tessera-migration.lock
flock 9
rm -f drizzle/0001_*.sql drizzle/meta/0001_snapshot.json
node -e '
const fs = require("fs"); const p = "drizzle/meta/_journal.json";
const j = JSON.parse(fs.readFileSync(p, "utf8")); j.entries = j.entries.filter((e) => e.idx === 0);
fs.writeFileSync(p, JSON.stringify(j, null, 2) + "\n");'
npx drizzle-kit generate --name "$name"
