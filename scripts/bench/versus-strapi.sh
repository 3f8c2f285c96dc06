#!/usr/bin/env bash
# Strapi 4.26.2 and Tessera back to back on PostgreSQL, each on its own copy of one database Strapi seeded
# (10,000 articles), serving the same Strapi app (../shared/strapi4-peer/app, unchanged), with the same load.
#
#   ../shared/strapi4-peer/setup.sh            # once: installs Strapi 4.26.2 into $PEER_ROOT (default /tmp/strapi4-peer)
#   npm run build && bash scripts/bench/versus-strapi.sh [scenario,…]
#
# The database is seeded by Strapi and not analysed afterwards, as a database Strapi just made on a cluster
# whose autovacuum has not run. BENCH_PG_* (host/port/user) as for `npm run bench`; DUR seconds per scenario.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PEER="$(cd "$ROOT/../shared/strapi4-peer" && pwd)"
export PEER_ROOT="${PEER_ROOT:-/tmp/strapi4-peer}"
ONLY="${1:-}"
PGH="${BENCH_PG_HOST:-127.0.0.1}"; PGP="${BENCH_PG_PORT:-5432}"; PGU="${BENCH_PG_USER:-postgres}"
BASE=tessera_versus_strapi_base; RUN=tessera_versus_strapi_run
psql_() { psql -q -h "$PGH" -p "$PGP" -U "$PGU" -d postgres "$@"; }
[ -x "$PEER_ROOT/strapi4-app/node_modules/.bin/strapi" ] || { echo "Strapi is not installed: run $PEER/setup.sh first" >&2; exit 1; }

export DATABASE_CLIENT=postgres DATABASE_HOST="$PGH" DATABASE_PORT="$PGP" DATABASE_USERNAME="$PGU" DATABASE_PASSWORD="${BENCH_PG_PASSWORD:-}"
export NODE_ENV=production HOST=127.0.0.1 PEER_TOKEN_FILE="$PEER_ROOT/versus-token.txt"
rm -f "$PEER_TOKEN_FILE"

echo "== seeding $BASE with Strapi 4.26.2 (10,000 articles)"
psql_ -c "DROP DATABASE IF EXISTS $RUN" -c "DROP DATABASE IF EXISTS $BASE" -c "CREATE DATABASE $BASE"
DATABASE_NAME=$BASE SEED=10000 PORT=1337 "$PEER/start.sh" >/dev/null
PORT=1337 "$PEER/stop.sh" >/dev/null

APP="$(mktemp -d)"; trap 'rm -rf "$APP"' EXIT
cp -a "$PEER/app/config" "$PEER/app/src" "$PEER/app/package.json" "$APP/"

for server in strapi tessera; do
  psql_ -c "DROP DATABASE IF EXISTS $RUN" -c "CREATE DATABASE $RUN TEMPLATE $BASE"
  export DATABASE_NAME=$RUN
  if [ $server = strapi ]; then
    PORT=1337 "$PEER/start.sh" >/dev/null; url=http://127.0.0.1:1337
  else
    (cd "$APP" && PORT=1338 setsid node "$ROOT/packages/cli/bin/tessera.js" start > "$PEER_ROOT/versus-tessera.log" 2>&1 &)
    for _ in $(seq 1 100); do curl -s -o /dev/null http://127.0.0.1:1338/_health && break; sleep 0.2; done; url=http://127.0.0.1:1338
  fi
  echo "== $server"
  node "$HERE/versus-strapi-load.js" "$url" "$(cat "$PEER_TOKEN_FILE")" "$ONLY" | tee "$PEER_ROOT/versus-$server.txt"
  if [ $server = strapi ]; then PORT=1337 "$PEER/stop.sh" >/dev/null; else pkill -f "tessera.js start" || true; sleep 1; fi
done
psql_ -c "DROP DATABASE IF EXISTS $RUN" -c "DROP DATABASE IF EXISTS $BASE"
node "$HERE/versus-strapi-load.js" --compare "$PEER_ROOT/versus-strapi.txt" "$PEER_ROOT/versus-tessera.txt"
