#!/usr/bin/env bash
# Rebuilds plugins/rest/test/data/strapi-4.26.2-blog.mysql.sql.gz: the tables Strapi 4.26.2 itself creates on
# MariaDB for the reference model, holding the reference blog's rows (../shared/reference/strapi4-blog.sqlite).
#   1. install the Strapi 4.26.2 peer (../shared/strapi4-peer/setup.sh) and mysql2 into it;
#   2. give its config/database.js a `mysql2` connection (Strapi 4.26's client name for mysql2);
#   3. boot Strapi once on an empty database: it creates every table, index and foreign key;
#   4. copy the reference rows into those tables (copy-rows.js: ids and values as Strapi stored them);
#   5. dump the database.
# Checked when it was made: Strapi serving that very database answers the reference samples 01 02 03 04 05 10 15 20
# 21 23 byte for byte as recorded on SQLite (plugins/rest/test/reference-samples-mysql.test.ts replays them on Tessera).
# Needs MariaDB with the test user (see README, Tests) and the npm registry.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PEER="$ROOT/../shared/strapi4-peer"
export PEER_ROOT="${PEER_ROOT:-/tmp/strapi4-peer-mysql}"
APP_DIR="$PEER_ROOT/strapi4-app"
DB="${DB:-strapi_blog}"
PORT="${PORT:-1391}"

bash "$PEER/setup.sh"
(cd "$APP_DIR" && npm install --no-save --no-audit --no-fund mysql2@3)
node "$ROOT/scripts/strapi-mysql/add-mysql-connection.js" "$APP_DIR/config/database.js"
mysql -e "DROP DATABASE IF EXISTS \`$DB\`; CREATE DATABASE \`$DB\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci"
DATABASE_CLIENT=mysql2 DATABASE_NAME="$DB" PORT="$PORT" bash "$PEER/start.sh"
PORT="$PORT" bash "$PEER/stop.sh"
node "$ROOT/scripts/strapi-mysql/copy-rows.js" "$ROOT/../shared/reference/strapi4-blog.sqlite" "$DB"
mysqldump --skip-dump-date --skip-comments --compact --no-create-db "$DB" | gzip -9 > "$ROOT/plugins/rest/test/data/strapi-4.26.2-blog.mysql.sql.gz"
echo "wrote plugins/rest/test/data/strapi-4.26.2-blog.mysql.sql.gz"
