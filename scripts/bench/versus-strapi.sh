#!/usr/bin/env bash
# Strapi 4.26.2 and Tessera back to back, each on its own copy of one database Strapi seeded (10,000 articles),
# serving the same Strapi app (../shared/strapi4-peer/app, unchanged but for a mysql2 connection on MariaDB), with
# the same load; PostgreSQL, then SQLite, then MySQL/MariaDB.
#
#   ../shared/strapi4-peer/setup.sh            # once: installs Strapi 4.26.2 into $PEER_ROOT (default /tmp/strapi4-peer)
#   npm run build && bash scripts/bench/versus-strapi.sh [scenario,…]
#
# BENCH_MODE=varied (default: every request differs, a sequence seeded by BENCH_SEED, the same for both servers)
# or fixed (one URL per scenario: identical concurrent requests); see scenarios.js.
# BENCH_DATABASES=postgres,sqlite,mysql (default all three). A PostgreSQL copy is not analysed afterwards, as a
# database Strapi just made on a cluster whose autovacuum has not run. BENCH_PG_* (host/port/user/password) and
# BENCH_MYSQL_* (host/port/user/password; default the test suite's MariaDB, tessera/tessera at 127.0.0.1:3306) as
# for `npm run bench`. DUR seconds per scenario (10), BENCH_CONNECTIONS (32). ARTICLES (10,000) seeds fewer for a
# quick check of the script. BENCH_STRAPI_PORT / BENCH_TESSERA_PORT (1337 / 1338): the servers run one after the
# other, so one free port may serve both. Databases and files of a run are named after the Strapi port, so runs
# on different ports do not collide. BENCH_TESSERA_SEARCH=title (a comma list of the article's text attributes) gives
# Tessera's copy of the app the search option on them (`pluginOptions.tessera.search`; Strapi ignores the key, and its
# copy is left as it is): `BENCH_TESSERA_SEARCH=title bash scripts/bench/versus-strapi.sh list-search`.
#
# Strapi runs from a folder of this run (the installed app's config and src, its node_modules linked), so the
# installed peer is never changed; on MariaDB, Strapi's knex finds mysql2 in this repository's node_modules.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PEER="$(cd "$ROOT/../shared/strapi4-peer" && pwd)"
export PEER_ROOT="${PEER_ROOT:-/tmp/strapi4-peer}"
STRAPI_APP="$PEER_ROOT/strapi4-app"
ONLY="${1:-}"
SPORT="${BENCH_STRAPI_PORT:-1337}"; TPORT="${BENCH_TESSERA_PORT:-1338}"
export BENCH_ARTICLES="${ARTICLES:-10000}"
PGH="${BENCH_PG_HOST:-127.0.0.1}"; PGP="${BENCH_PG_PORT:-5432}"; PGU="${BENCH_PG_USER:-postgres}"; PGW="${BENCH_PG_PASSWORD:-}"
MYH="${BENCH_MYSQL_HOST:-127.0.0.1}"; MYP="${BENCH_MYSQL_PORT:-3306}"; MYU="${BENCH_MYSQL_USER:-tessera}"; MYW="${BENCH_MYSQL_PASSWORD-tessera}"
BASE="bench_versus_${SPORT}_base"; RUN="bench_versus_${SPORT}_run"
psql_() { PGOPTIONS='-c client_min_messages=warning' PGPASSWORD="$PGW" psql -q -h "$PGH" -p "$PGP" -U "$PGU" -d postgres "$@"; }
mysql_() { MYSQL_PWD="$MYW" mysql -h "$MYH" -P "$MYP" -u "$MYU" "$@"; }
[ -x "$STRAPI_APP/node_modules/.bin/strapi" ] || { echo "Strapi is not installed: run $PEER/setup.sh first" >&2; exit 1; }

export NODE_ENV=production HOST=127.0.0.1
WORK="$(mktemp -d)"; APP="$WORK/tessera-app"; SAPP="$WORK/strapi-app"; OUT="$PEER_ROOT/versus-$SPORT"
export PEER_TOKEN_FILE="$WORK/token.txt"
mkdir -p "$APP" "$SAPP" "$OUT"
cp -a "$PEER/app/config" "$PEER/app/src" "$PEER/app/package.json" "$APP/"
cp -a "$STRAPI_APP/config" "$STRAPI_APP/src" "$STRAPI_APP/package.json" "$SAPP/"
mkdir -p "$SAPP/public/uploads" "$SAPP/database/migrations"
ln -s "$STRAPI_APP/node_modules" "$SAPP/node_modules"
for app in "$APP" "$SAPP"; do node "$ROOT/scripts/strapi-mysql/add-mysql-connection.js" "$app/config/database.js"; done
if [ -n "${BENCH_TESSERA_SEARCH:-}" ]; then
  node -e '
    const fs = require("node:fs");
    const [file, list] = process.argv.slice(1);
    const schema = JSON.parse(fs.readFileSync(file, "utf8"));
    schema.pluginOptions = { ...schema.pluginOptions, tessera: { search: list.split(",") } };
    fs.writeFileSync(file, JSON.stringify(schema, null, 2));
  ' "$APP/src/api/article/content-types/article/schema.json" "$BENCH_TESSERA_SEARCH"
fi

TESSERA_PID=
stop_tessera() {
  [ -n "$TESSERA_PID" ] || return 0
  # Its own process group (setsid): only what this script started.
  kill -TERM -- "-$TESSERA_PID" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$TESSERA_PID" 2>/dev/null || break; sleep 0.2; done
  kill -KILL -- "-$TESSERA_PID" 2>/dev/null || true
  TESSERA_PID=
}
cleanup() {
  stop_tessera
  PORT=$SPORT "$PEER/stop.sh" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# Where DATABASE_* point for this client; the database named $1.
use_database() {
  if [ "$DATABASE_CLIENT" = postgres ]; then
    export DATABASE_HOST="$PGH" DATABASE_PORT="$PGP" DATABASE_USERNAME="$PGU" DATABASE_PASSWORD="$PGW" DATABASE_NAME="$1"
  elif [ "$DATABASE_CLIENT" = mysql2 ]; then
    export DATABASE_HOST="$MYH" DATABASE_PORT="$MYP" DATABASE_USERNAME="$MYU" DATABASE_PASSWORD="$MYW" DATABASE_NAME="$1"
    # Strapi's knex requires mysql2 from the installed peer, which has none: it finds this repository's.
    export NODE_PATH="$ROOT/node_modules"
  else
    export DATABASE_FILENAME=".tmp/$1.db"
  fi
}

# A fresh copy of the seeded database for the next server.
fresh_copy() {
  if [ "$DATABASE_CLIENT" = postgres ]; then
    psql_ -c "DROP DATABASE IF EXISTS $RUN" -c "CREATE DATABASE $RUN TEMPLATE $BASE"
  elif [ "$DATABASE_CLIENT" = mysql2 ]; then
    mysql_ -e "DROP DATABASE IF EXISTS \`$RUN\`; CREATE DATABASE \`$RUN\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci"
    MYSQL_PWD="$MYW" mysqldump -h "$MYH" -P "$MYP" -u "$MYU" --single-transaction "$BASE" | mysql_ "$RUN"
  else
    for dir in "$SAPP" "$APP"; do mkdir -p "$dir/.tmp"; rm -f "$dir/.tmp/$RUN.db"*; cp "$SAPP/.tmp/$BASE.db" "$dir/.tmp/$RUN.db"; done
  fi
  use_database "$RUN"
}

drop_databases() {
  if [ "$DATABASE_CLIENT" = postgres ]; then psql_ -c "DROP DATABASE IF EXISTS $RUN" -c "DROP DATABASE IF EXISTS $BASE"
  elif [ "$DATABASE_CLIENT" = mysql2 ]; then mysql_ -e "DROP DATABASE IF EXISTS \`$RUN\`; DROP DATABASE IF EXISTS \`$BASE\`"
  else rm -f "$SAPP/.tmp/"*.db* "$APP/.tmp/"*.db*; fi
}

# mysql is the bench's name for it; Strapi 4.26's client name for mysql2 is mysql2 (Tessera takes both).
client_of() { [ "$1" = mysql ] && echo mysql2 || echo "$1"; }
DATABASES="$(echo "${BENCH_DATABASES:-postgres,sqlite,mysql}" | tr , ' ')"
for NAME in $DATABASES; do
  export DATABASE_CLIENT; DATABASE_CLIENT="$(client_of "$NAME")"
  rm -f "$PEER_TOKEN_FILE"
  echo "== $NAME: seeding with Strapi 4.26.2 ($BENCH_ARTICLES articles)"
  drop_databases
  if [ "$DATABASE_CLIENT" = postgres ]; then psql_ -c "CREATE DATABASE $BASE"
  elif [ "$DATABASE_CLIENT" = mysql2 ]; then mysql_ -e "CREATE DATABASE \`$BASE\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci"; fi
  use_database "$BASE"
  SEED="$BENCH_ARTICLES" APP_DIR="$SAPP" PORT=$SPORT "$PEER/start.sh" >/dev/null 2>&1 || { tail -30 "$PEER_ROOT/strapi4-$SPORT.log" >&2; exit 1; }
  PORT=$SPORT "$PEER/stop.sh" >/dev/null
  for server in strapi tessera; do
    fresh_copy
    # Each server samples its own memory while it is measured (memory-sampler.js; --compare reads the peak).
    rm -f "$OUT/$NAME-$server.memory.jsonl"
    export BENCH_MEMORY_FILE="$OUT/$NAME-$server.memory.jsonl" NODE_OPTIONS="--require $HERE/memory-sampler.js"
    if [ $server = strapi ]; then
      APP_DIR="$SAPP" PORT=$SPORT "$PEER/start.sh" >/dev/null 2>&1 || { tail -30 "$PEER_ROOT/strapi4-$SPORT.log" >&2; exit 1; }
      url=http://127.0.0.1:$SPORT
    else
      cd "$APP"
      PORT=$TPORT setsid node "$ROOT/packages/cli/bin/tessera.js" start > "$OUT/tessera.log" 2>&1 < /dev/null &
      TESSERA_PID=$!
      cd "$ROOT"
      url=http://127.0.0.1:$TPORT
      for _ in $(seq 1 150); do curl -s -o /dev/null "$url/_health" && break; sleep 0.2; done
    fi
    unset BENCH_MEMORY_FILE NODE_OPTIONS
    echo "== $NAME: $server"
    node "$HERE/versus-strapi-load.js" "$url" "$(cat "$PEER_TOKEN_FILE")" "$ONLY" | tee "$OUT/$NAME-$server.txt"
    if [ $server = strapi ]; then PORT=$SPORT "$PEER/stop.sh" >/dev/null; else stop_tessera; sleep 1; fi
  done
  drop_databases
done
for NAME in $DATABASES; do
  echo; echo "$NAME, ${BENCH_MODE:-varied}"
  node "$HERE/versus-strapi-load.js" --compare "$OUT/$NAME-strapi.txt" "$OUT/$NAME-tessera.txt"
done
