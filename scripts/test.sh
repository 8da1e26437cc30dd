#!/usr/bin/env bash
# Runs every test of the project from a fresh clone, installing what it needs:
# Go modules, the npm packages of static/editor and e2e/, and Debian's
# Chromium and redis-server when they are absent. Usage: ./scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "Go modules"
go mod download

step "npm packages (static/editor, sandbox/libs, e2e, the MCP client check)"
(cd static/editor && npm ci --no-audit --no-fund --loglevel=error)
(cd sandbox/libs && npm ci --no-audit --no-fund --loglevel=error)
(cd e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
(cd web/api/testdata/mcpclient && npm ci --no-audit --no-fund --loglevel=error)

CHROMIUM_PATH=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM_PATH" ]; then
  step "Debian's chromium"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  CHROMIUM_PATH=/usr/bin/chromium
fi
export CHROMIUM_PATH

if ! command -v redis-server >/dev/null 2>&1; then
  step "Debian's redis-server (the shared-limits tests start their own on a loopback port)"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq redis-server >/dev/null
fi

step "generated code is fresh (templ, editor bundle, vendored libraries)"
go tool templ generate >/dev/null
go generate ./static ./sandbox/libs
if git rev-parse --git-dir >/dev/null 2>&1; then
  git diff --exit-code -- web/*_templ.go static/editor.bundle.js static/ts.worker.js static/prettier.bundle.js sandbox/libs/dist ||
    { echo "generated files are stale: run 'go tool templ generate && go generate ./static ./sandbox/libs' and commit"; exit 1; }
  [ -z "$(git status --porcelain -- web static/editor.bundle.js static/ts.worker.js static/prettier.bundle.js sandbox/libs/dist)" ] ||
    { echo "generated files are not committed:"; git status --porcelain -- web static sandbox/libs/dist; exit 1; }
fi

step "gofmt, go vet, staticcheck, govulncheck"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './*/node_modules/*'))
[ -z "$unformatted" ] || { echo "gofmt needed: $unformatted"; exit 1; }
go vet ./...
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
# govulncheck reads the Go vulnerability database at vuln.go.dev; machines
# that reach only the package registries cannot, and say so.
if curl -fsS --max-time 10 -o /dev/null https://vuln.go.dev/index/db.json 2>/dev/null; then
  go run golang.org/x/vuln/cmd/govulncheck@v1.9.0 ./...
else
  echo "govulncheck not run: vuln.go.dev (its vulnerability database) is unreachable from this machine"
fi

step "go test -race"
# The tests that compare with Node and the npm packages installed above skip
# in a fresh clone without them; here they must run, so a missing one fails.
PLAYGROUND_REQUIRE_NPM=1 go test -race -count=1 ./...

step "MCP: the official TypeScript SDK client against a real server"
bin=$(mktemp -d)/playground
go build -o "$bin" ./cmd/playground
MCP_ADDR=127.0.0.1:${MCP_CHECK_PORT:-18931}
"$bin" -addr "$MCP_ADDR" -log-level warn &
mcp_pid=$!
trap 'kill $mcp_pid 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -fsS "http://$MCP_ADDR/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
node web/api/testdata/mcpclient/check.mjs "http://$MCP_ADDR/mcp"
kill $mcp_pid
wait $mcp_pid 2>/dev/null || true
trap - EXIT

# A count, not a duration: with a duration -fuzztime, Go 1.26's coordinator can
# report its own deadline as "context deadline exceeded" and fail with no failing
# input (go.dev/issue/75804, fixed in Go 1.27). 150,000 inputs take ≈7–10 s here.
step "fuzz the protocol decoder (150,000 inputs)"
go test -run '^$' -fuzz '^FuzzDecode$' -fuzztime 150000x ./ws

# Every installed built-in with hostile arguments (issue 22): each input is a
# run of 400 calls; 200 inputs take ≈15 s here. A count, as above.
step "fuzz the built-ins with hostile arguments (200 runs of 400 calls)"
go test -run '^$' -fuzz '^FuzzBuiltins$' -fuzztime 200x ./sandbox/worker/js

step "node unit tests (the page's preview renderer against the Go golden file)"
node --test static/

step "Playwright in Chromium"
(cd e2e && CI=1 npx playwright test)
