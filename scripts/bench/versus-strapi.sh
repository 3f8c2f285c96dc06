#!/usr/bin/env bash
# Strapi 4.26.2 and Tessera back to back, each on its own copy of one database Strapi seeded (10,000 articles),
# serving the same Strapi app (../shared/strapi4-peer/app, unchanged), with the same load; PostgreSQL, then SQLite.
#
#   ../shared/strapi4-peer/setup.sh            # once: installs Strapi 4.26.2 into $PEER_ROOT (default /tmp/strapi4-peer)
#   npm run build && bash scripts/bench/versus-strapi.sh [scenario,…]
#
# BENCH_DATABASES=postgres,sqlite (default both). A PostgreSQL copy is not analysed afterwards, as a database Strapi
# just made on a cluster whose autovacuum has not run. BENCH_PG_* (host/port/user) as for `npm run bench`; DUR
# seconds per scenario (10).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PEER="$(cd "$ROOT/../shared/strapi4-peer" && pwd)"
export PEER_ROOT="${PEER_ROOT:-/tmp/strapi4-peer}"
STRAPI_APP="$PEER_ROOT/strapi4-app"
ONLY="${1:-}"
PGH="${BENCH_PG_HOST:-127.0.0.1}"; PGP="${BENCH_PG_PORT:-5432}"; PGU="${BENCH_PG_USER:-postgres}"
BASE=tessera_versus_strapi_base; RUN=tessera_versus_strapi_run
psql_() { psql -q -h "$PGH" -p "$PGP" -U "$PGU" -d postgres "$@"; }
[ -x "$STRAPI_APP/node_modules/.bin/strapi" ] || { echo "Strapi is not installed: run $PEER/setup.sh first" >&2; exit 1; }

export DATABASE_HOST="$PGH" DATABASE_PORT="$PGP" DATABASE_USERNAME="$PGU" DATABASE_PASSWORD="${BENCH_PG_PASSWORD:-}"
export NODE_ENV=production HOST=127.0.0.1 PEER_TOKEN_FILE="$PEER_ROOT/versus-token.txt"
APP="$(mktemp -d)"; trap 'rm -rf "$APP"' EXIT
cp -a "$PEER/app/config" "$PEER/app/src" "$PEER/app/package.json" "$APP/"

# A fresh copy of the seeded database for the next server.
fresh_copy() {
  if [ "$DATABASE_CLIENT" = postgres ]; then
    psql_ -c "DROP DATABASE IF EXISTS $RUN" -c "CREATE DATABASE $RUN TEMPLATE $BASE"; export DATABASE_NAME=$RUN
  else
    for dir in "$STRAPI_APP" "$APP"; do mkdir -p "$dir/.tmp"; rm -f "$dir/.tmp/versus-run.db"*; cp "$STRAPI_APP/.tmp/versus-base.db" "$dir/.tmp/versus-run.db"; done
    export DATABASE_FILENAME=.tmp/versus-run.db
  fi
}

for DATABASE_CLIENT in $(echo "${BENCH_DATABASES:-postgres,sqlite}" | tr , ' '); do
  export DATABASE_CLIENT
  rm -f "$PEER_TOKEN_FILE"
  echo "== $DATABASE_CLIENT: seeding with Strapi 4.26.2 (10,000 articles)"
  if [ "$DATABASE_CLIENT" = postgres ]; then
    psql_ -c "DROP DATABASE IF EXISTS $RUN" -c "DROP DATABASE IF EXISTS $BASE" -c "CREATE DATABASE $BASE"; export DATABASE_NAME=$BASE
  else
    rm -f "$STRAPI_APP/.tmp/versus-base.db"*; export DATABASE_FILENAME=.tmp/versus-base.db
  fi
  SEED=10000 PORT=1337 "$PEER/start.sh" >/dev/null 2>&1
  PORT=1337 "$PEER/stop.sh" >/dev/null
  for server in strapi tessera; do
    fresh_copy
    if [ $server = strapi ]; then
      PORT=1337 "$PEER/start.sh" >/dev/null 2>&1; url=http://127.0.0.1:1337
    else
      (cd "$APP" && PORT=1338 setsid node "$ROOT/packages/cli/bin/tessera.js" start > "$PEER_ROOT/versus-tessera.log" 2>&1 &)
      for _ in $(seq 1 100); do curl -s -o /dev/null http://127.0.0.1:1338/_health && break; sleep 0.2; done; url=http://127.0.0.1:1338
    fi
    echo "== $DATABASE_CLIENT: $server"
    node "$HERE/versus-strapi-load.js" "$url" "$(cat "$PEER_TOKEN_FILE")" "$ONLY" | tee "$PEER_ROOT/versus-$DATABASE_CLIENT-$server.txt"
    if [ $server = strapi ]; then PORT=1337 "$PEER/stop.sh" >/dev/null; else pkill -f "tessera.js start" || true; sleep 1; fi
  done
  if [ "$DATABASE_CLIENT" = postgres ]; then psql_ -c "DROP DATABASE IF EXISTS $RUN" -c "DROP DATABASE IF EXISTS $BASE"; else rm -f "$STRAPI_APP/.tmp/versus-"*.db*; fi
done
for DATABASE_CLIENT in $(echo "${BENCH_DATABASES:-postgres,sqlite}" | tr , ' '); do
  echo; echo "$DATABASE_CLIENT"
  node "$HERE/versus-strapi-load.js" --compare "$PEER_ROOT/versus-$DATABASE_CLIENT-strapi.txt" "$PEER_ROOT/versus-$DATABASE_CLIENT-tessera.txt"
done
