#!/bin/bash
# usage: scripts/realwork.sh [cmd/realwork flags...]
#
# The real-work benchmark (issue 21; docs/benchmarks.md, "Real work"):
# builds the server and cmd/realwork, starts the server on a loopback port
# with flags permissive enough for data (no rate limit, -max-timeout 60s,
# output cap 64 MiB on every transport, facts cap 4 MiB (its maximum); memory and message caps stay at their
# defaults), runs every workload over the HTTP API and the WebSocket and
# under node, node --jitless and a bare goja runtime, prints the Markdown
# tables (workloads, then each shipped library cold and warm), and stops
# the server. Extra arguments go to cmd/realwork (-n 1e3,1e4 -workloads
# lodash,sieve -reps 5 -timeout 60s -json out.json; -cold=false skips the
# library table). $RW_PORT picks the port (default 18931), $SERVER_FLAGS adds
# server flags. Needs node on $PATH and sandbox/libs/node_modules (npm ci
# there; done here when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${RW_PORT:-18931}
TMP=$(mktemp -d)
[ -d sandbox/libs/node_modules/lodash ] || (cd sandbox/libs && npm ci --no-audit --no-fund >&2)
go build -o "$TMP/playground" ./cmd/playground
go build -o "$TMP/realwork" ./cmd/realwork
# shellcheck disable=SC2086
"$TMP/playground" -addr "127.0.0.1:$PORT" -rate 1e6 -burst 1000000 -max-timeout 60s \
	-max-output-bytes 67108864 -socket-max-output-bytes 67108864 -max-facts-bytes 4194304 -log-level warn ${SERVER_FLAGS:-} 2>"$TMP/server.log" &
SRV=$!
trap 'kill $SRV 2>/dev/null; wait $SRV 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 100); do
	curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
	sleep 0.1
done
echo "node $(node --version), $(go version | cut -d' ' -f3), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(git rev-parse --short HEAD) $(date -u +%FT%RZ)"
echo
"$TMP/realwork" -addr "127.0.0.1:$PORT" -bin "$TMP/playground" -libs sandbox/libs -cold "$@"
