#!/usr/bin/env bash
# CI: the deployment files of docs/deploy are valid as committed.
# - nginx-tessera.conf: `nginx -t` on a minimal main configuration that includes it, with the certificate paths
#   pointed at a self-signed certificate made here (nginx -t opens the certificate and key).
# - tessera.service: `systemd-analyze verify`, with ExecStart's /usr/local/bin/node pointed at this machine's node
#   (verify checks that the program exists). verify only warns about unknown keys or bad values, so any output fails.
# - prometheus-tessera.yml: `promtool check config`, with the token file pointed at one made here.
# Needs nginx, openssl, systemd-analyze and promtool (.ci/run installs nginx and prometheus when missing).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
deploy="$root/docs/deploy"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=iot.example.com \
  -keyout "$work/privkey.pem" -out "$work/fullchain.pem" 2>/dev/null
sed -e "s|/etc/ssl/tessera/|$work/|g" "$deploy/nginx-tessera.conf" >"$work/tessera.conf"
cat >"$work/nginx.conf" <<EOF
pid $work/nginx.pid;
error_log $work/error.log;
events {}
http {
    access_log off;
    client_body_temp_path $work/client_body;
    proxy_temp_path $work/proxy;
    include $work/tessera.conf;
}
EOF
nginx -t -q -p "$work" -e "$work/error.log" -c "$work/nginx.conf"

sed -e "s|/usr/local/bin/node|$(command -v node)|" "$deploy/tessera.service" >"$work/tessera.service"
verify=$(cd "$work" && systemd-analyze verify ./tessera.service 2>&1) || {
  echo "$verify" >&2
  exit 1
}
if [ -n "$verify" ]; then
  echo "systemd-analyze verify warned about docs/deploy/tessera.service:" >&2
  echo "$verify" >&2
  exit 1
fi
printf 'example-metrics-token-0123456789\n' >"$work/tessera-metrics.token"
sed -e "s|/etc/prometheus/tessera-metrics.token|$work/tessera-metrics.token|" "$deploy/prometheus-tessera.yml" >"$work/prometheus.yml"
promtool check config "$work/prometheus.yml" >/dev/null
echo "deploy files: nginx -t, systemd-analyze verify and promtool check config ok"
