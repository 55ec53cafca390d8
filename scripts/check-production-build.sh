#!/usr/bin/env bash
# CI (after `npm run build`): the production install works with plain node and runtime dependencies only.
# Copies the release tree (scripts/release-tree.sh) to a temporary directory, runs `npm ci --omit=dev` there, checks
# that no dev tool was installed, starts `npm run start:prod` against a fresh PGlite data directory on free ports with
# the demo, and checks what an operator would: /healthz is ok, the console's index.html and a script it loads are
# served, a demo account logs in (argon2, the native addon), the device HTTP port's thread (its own bundle) answers a
# webhook request through the main thread and counts it in the metrics, and SIGTERM stops the server with exit code 0.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "production build: $1" >&2
  [ -f "$work/server.log" ] && tail -n 40 "$work/server.log" >&2
  exit 1
}

started=$(date +%s)
bash "$root/scripts/release-tree.sh" "$work/tessera"
cd "$work/tessera"
npm ci --omit=dev --no-audit --no-fund --loglevel=error
for tool in tsx typescript vitest vite esbuild drizzle-kit; do
  [ ! -e "node_modules/$tool" ] || fail "node_modules/$tool was installed by npm ci --omit=dev"
done

free_port() { node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })"; }
http_port=$(free_port)
mqtt_port=$(free_port)
device_port=$(free_port)
base="http://127.0.0.1:$http_port"
metrics_token="production-build-check-$$"
PORT=$http_port MQTT_PORT=$mqtt_port DEVICE_HTTP_PORT=$device_port METRICS_TOKEN=$metrics_token HOST=127.0.0.1 DATA_DIR="$work/data" DEMO=1 npm run start:prod >"$work/server.log" 2>&1 &
pid=$!

# Up to 180 s: a first start migrates a fresh PGlite database, which takes seconds on a quiet machine and far longer
# on a CI machine busy with other work.
health=""
for _ in $(seq 1 360); do
  kill -0 "$pid" 2>/dev/null || fail "the server exited during start-up"
  health=$(curl -s -w ' HTTP %{http_code}' "$base/healthz" || true)
  case "$health" in *'"status":"ok"'*' HTTP 200') break ;; esac
  sleep 0.5
done
case "$health" in *'"status":"ok"'*' HTTP 200') ;; *) fail "/healthz did not answer 200 ok within 180 s; last answer: $health" ;; esac

index=$(curl -sf "$base/") || fail "GET / failed"
echo "$index" | grep -q '<title>Tessera IoT</title>' || fail "GET / is not the console's index.html"
script=$(echo "$index" | grep -o '/assets/index-[^"]*\.js' | head -n 1)
[ -n "$script" ] || fail "index.html names no /assets/index-*.js"
curl -sf -o /dev/null "$base$script" || fail "GET $script failed"

login=$(curl -s -o /dev/null -w '%{http_code}' -H 'content-type: application/json' \
  -d '{"email":"vendor@example.com","password":"Demo#2026","role":"vendor"}' "$base/authorization/v1/login")
[ "$login" = 200 ] || fail "the demo vendor's login answered $login"
# No integration 1 with this secret: the thread parses the request, the main thread looks it up and refuses it.
webhook=$(curl -s -w ' HTTP %{http_code}' -H 'content-type: application/json' -H 'x-tessera-secret: not-the-secret' \
  -d '{}' "http://127.0.0.1:$device_port/lorawan/v1/1/chirpstack?event=up" || true)
case "$webhook" in *'"code":"AUTH_WRONG_CREDENTIALS"'*' HTTP 401') ;; *) fail "the device HTTP port answered: $webhook" ;; esac
metrics=$(curl -sf -H "authorization: Bearer $metrics_token" "$base/metrics") || fail "GET /metrics failed"
echo "$metrics" | grep -q '^tessera_device_http_request_duration_seconds_count{.*status="401".*} 1$' ||
  fail "/metrics has no device HTTP latency sample of the refused webhook request"

kill -TERM "$pid"
code=0
wait "$pid" || code=$?
pid=""
[ "$code" = 0 ] || fail "SIGTERM stopped the server with exit code $code"
echo "production build: npm ci --omit=dev, start, /healthz, console, login and stop ok on node $(node --version) in $(($(date +%s) - started)) s"
