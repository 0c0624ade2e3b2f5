#!/usr/bin/env bash
# `npm test`: lint, typecheck, unit and API tests on PGlite and on a real PostgreSQL 15 server that
# this script starts and stops itself, then the end-to-end tests in Debian's chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
started=$(date +%s)

# --- what the tests need on the machine --------------------------------------------------------
find_pg_bin() {
  local dir
  for dir in /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; return 0; fi
  done
  return 1
}
missing=()
find_pg_bin >/dev/null || missing+=(postgresql)
[ -x /usr/bin/chromium ] || missing+=(chromium)
# The e2e tests turn printed PDFs into pictures with pdftoppm.
command -v pdftoppm >/dev/null || missing+=(poppler-utils)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    step "installing ${missing[*]} with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" fonts-dejavu-core >/dev/null
  else
    echo "The tests need Debian's ${missing[*]}. Install with:" >&2
    echo "  sudo apt-get install -y ${missing[*]} fonts-dejavu-core" >&2
    exit 1
  fi
fi
PG_BIN=$(find_pg_bin)

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "installing dependencies"
  npm install --no-audit --no-fund  # not `npm ci`: see scripts/start.mjs
fi

RESULTS=$(mktemp -d /tmp/protocol-results.XXXXXX)
# The tests' embedded databases (a PGlite folder per app, about 60 MB, removed when the app closes)
# and their stored files go to memory where the machine has room there: PGlite writes each page with
# a call of its own (three server test files: 69 s of tests in memory, 96 to 117 s on the disk).
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] &&
  [ "$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')" -gt 4000000 ]; then
  export TMPDIR=/dev/shm
fi
# Each vitest run also writes a JSON report, summed up in the closing line.
vitest_run() {
  local name=$1
  shift
  npx vitest run "$@" --reporter=default --reporter=json --outputFile.json="$RESULTS/$name.json"
}

step "dependencies support every promised Node.js line"
node scripts/check-engines.mjs

# Each line of a step run beside another says which one it comes from.
labelled() { sed -u "s/^/[$1] /"; }

# The typecheck (tsc, one thread at a time) takes a core while lint, the unit tests and the build of
# the web app (for the end-to-end tests) share the other. Those end first: the server tests start
# then, beside the rest of the typecheck, whose result is awaited when they end.
step "typecheck, beside lint, the unit tests of the contracts and the web app, and the web app's build"
( npm run typecheck 2>&1 | labelled typecheck ) &
typecheck_run=$!
npx biome check . 2>&1 | labelled lint
vitest_run contracts --root packages/contracts 2>&1 | labelled contracts
vitest_run web --root apps/web 2>&1 | labelled web
npm run build 2>&1 | labelled build

# --- a real PostgreSQL server in a temporary folder, on a free loopback port ---------------------
step "server tests on PGlite and on PostgreSQL ($("$PG_BIN/postgres" --version)), side by side"
PG_TMP=$(mktemp -d /tmp/protocol-pg.XXXXXX)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$PG_TMP"
stop_pg() {
  as_pg "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_TMP"
}
trap stop_pg EXIT
PG_PORT=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
as_pg "$PG_BIN/initdb" -D "$PG_TMP/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
as_pg "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/server.log" -w -o \
  "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $PG_TMP -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null
# The two passes run at once, two files at a time each: a PGlite file keeps a core busy in
# WebAssembly, a PostgreSQL file waits on the server's processes part of the time, and the PostgreSQL
# pass is the longer one. The PostgreSQL pass runs behind the company wall (COMPANY_WALL=on), the
# PGlite pass as installed by default, without it.
( vitest_run server-pglite --root apps/server --maxWorkers=2 2>&1 | labelled pglite ) &
pglite_pass=$!
( TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres" TEST_COMPANY_WALL=on \
    vitest_run server-postgres --root apps/server --maxWorkers=2 2>&1 | labelled postgres ) &
postgres_pass=$!
typecheck_status=0 pglite_status=0 postgres_status=0
wait $typecheck_run || typecheck_status=$?
wait $pglite_pass || pglite_status=$?
wait $postgres_pass || postgres_status=$?
if [ $typecheck_status -ne 0 ]; then echo "typecheck failed (exit $typecheck_status)" >&2; exit 1; fi
if [ $pglite_status -ne 0 ] || [ $postgres_status -ne 0 ]; then
  echo "server tests failed (PGlite: exit $pglite_status, PostgreSQL: exit $postgres_status)" >&2
  exit 1
fi

# The apps of the end-to-end tests keep their data on the same PostgreSQL server: every route has
# run on both databases above, and an app on PGlite spends a third more of the machine's time in
# its own process (WebAssembly) than on the server. `npm start`'s embedded database has its own
# end-to-end test (start.test.ts).
step "end-to-end tests in chromium"
TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres" vitest_run e2e --root e2e
stop_pg
trap - EXIT

echo
node -e '
  const fs = require("fs"), dir = process.argv[1];
  let passed = 0, failed = 0, skipped = 0;
  for (const f of fs.readdirSync(dir)) {
    const r = JSON.parse(fs.readFileSync(dir + "/" + f, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  }
  console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
' "$RESULTS"
rm -rf "$RESULTS"
echo "npm test finished in $(( $(date +%s) - started )) s."
