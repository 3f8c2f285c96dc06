/**
 * The Strapi 4.26.2 reference samples replayed on a database Strapi made on
 * MariaDB: `data/strapi-4.26.2-blog.mysql.sql.gz` is the dump of the tables
 * Strapi 4.26.2 created at its boot on MariaDB 10.11 for the reference model,
 * holding the rows of the reference blog (strapi4-blog.sqlite) — recipe in
 * scripts/strapi-mysql/make-fixture.sh. Strapi itself, serving that database,
 * answered these samples byte for byte as recorded; Tessera, serving it in
 * place, must too. Runs when the suite runs on MySQL/MariaDB.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { DIALECTS, EXAMPLE_APP, MYSQL, createDatabase, requireReference, startApp, type TestApp } from '@tessera/testing';
import { replayIdentical } from './reference-sample-files';

const DUMP = path.join(__dirname, 'data/strapi-4.26.2-blog.mysql.sql.gz');

async function loadDump(database: string): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mysql = require('mysql2/promise') as typeof import('mysql2/promise');
  const client = await mysql.createConnection({ ...MYSQL, database, multipleStatements: true });
  try {
    // The dump creates tables in name order, before the tables their foreign keys name.
    await client.query(`SET foreign_key_checks = 0; ${zlib.gunzipSync(fs.readFileSync(DUMP)).toString('utf8')}\nSET foreign_key_checks = 1`);
  } finally {
    await client.end();
  }
}

if (DIALECTS.includes('mysql')) {
  describe('Strapi v4 reference samples on a Strapi-made MariaDB database [mysql]', () => {
    let app: TestApp;
    let strapiTables: Array<{ table: string; columns: string }>;
    const columnsOf = async () =>
      (await app.app.db.sql.raw(
        `SELECT table_name AS t, GROUP_CONCAT(column_name, ' ', column_type ORDER BY ordinal_position) AS c FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name NOT LIKE 'tessera%' GROUP BY table_name ORDER BY table_name`,
      )).map((row) => ({ table: String(row.t), columns: String(row.c) }));

    before(async function () {
      requireReference(this, 'strapi4-samples');
      const database = await createDatabase('mysql', os.tmpdir());
      await loadDump(database.schema!);
      app = await startApp({ dialect: 'mysql', from: EXAMPLE_APP, database, config: { api: { rest: { publicPreview: true } } } });
      strapiTables = await columnsOf();
    });
    after(() => app?.stop());

    replayIdentical(() => app);

    it("serves Strapi's tables in place: a second sync changes nothing, and every column Strapi created is there, unchanged", async () => {
      expect(strapiTables.map((entry) => entry.table)).to.include.members(['articles', 'articles_tags_links', 'homepages_featured_articles_links', 'up_users']);
      expect(await app.app.db.sync()).to.deep.equal({ changes: [], warnings: [], summary: 'up to date' });
      const dumped = zlib.gunzipSync(fs.readFileSync(DUMP)).toString('utf8');
      // Every column of every Strapi table keeps the name, type and place Strapi gave it.
      let checked = 0;
      for (const { table, columns } of strapiTables) {
        const created = new RegExp(`CREATE TABLE \`${table}\` \\(([\\s\\S]*?)\\n\\)`).exec(dumped);
        // A table of a type the example app has beyond Strapi's reference model: Tessera created it, whole.
        if (!created) continue;
        checked++;
        const declared = created![1].split('\n').map((line) => /^\s+`([^`]+)` ([a-z]+(?:\(\d+(?:,\d+)?\))?(?: unsigned)?)/.exec(line)).filter((match) => match !== null);
        // Strapi's columns stay as they are; the example app's own extra attributes (`pages.notes`) come after them.
        expect(`${columns},`, table).to.match(new RegExp(`^${declared.map((match) => `${match![1]} ${match![2]}`).join(',').replace(/[()]/g, '\\$&')},`));
      }
      expect(checked).to.equal((dumped.match(/CREATE TABLE/g) ?? []).length);
    });
  });
}
