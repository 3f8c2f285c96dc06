/**
 * MySQL/MariaDB's write versions (mysql-write-versions.ts): a process's own
 * committed writes are known by the version its bump read, so its poll does
 * not take them for another process's; a write it did not make is heard. A
 * bump of one type reads its version back from the same statement
 * (LAST_INSERT_ID): a wrong version there would be heard as a foreign write,
 * or worse, make a foreign one look like ours.
 */
import { expect } from 'chai';
import { DIALECTS, MYSQL, startApp, type TestApp } from '@tessera/testing';
import { mysqlDriverOptions } from '../src/connection/mysql-driver';
import { MysqlWriteVersions, WRITE_VERSIONS_TABLE } from '../src/connection/mysql-write-versions';

(DIALECTS.includes('mysql') ? describe : describe.skip)('write versions on MySQL/MariaDB: own writes known, others heard [mysql]', () => {
  let app: TestApp;
  let versions: MysqlWriteVersions;
  const heard: string[] = [];

  before(async () => {
    app = await startApp({ dialect: 'mysql', files: {} });
    // A second poller on the app's database, as another process's would be: what it hears is what the test sees.
    const database = app.database.schema;
    versions = new MysqlWriteVersions(mysqlDriverOptions({ ...MYSQL, database }, 5000), { written: (uid) => heard.push(uid), setCoherent: () => undefined });
    await versions.start();
  });
  after(async () => {
    await versions?.stop();
    await app?.stop();
  });

  /** Bumps `types` in a committed transaction, as the connection does before COMMIT, and records them after it. */
  async function bumped(types: string[]): Promise<void> {
    const { sql } = app.app.db;
    const recorded = await sql.transaction(() => versions.bump(sql, new Set(types)));
    recorded();
  }

  it('hears none of its own bumps: a new type (inserted at 1), the same type again (updated), two types at once', async () => {
    heard.length = 0;
    await bumped(['test::one']);
    await bumped(['test::one']);
    await bumped(['test::one']);
    await bumped(['test::one', 'test::two']);
    await versions.heardUpToNow();
    await versions.heardUpToNow();
    expect(heard.filter((uid) => uid.startsWith('test::'))).to.deep.equal([]);
    const rows = await app.app.db.sql.raw(`SELECT uid, version FROM ${WRITE_VERSIONS_TABLE} WHERE uid LIKE 'test::%' ORDER BY uid`);
    expect(rows.map((row) => [row.uid, Number(row.version)])).to.deep.equal([['test::one', 4], ['test::two', 1]]);
  });

  it('hears a bump it did not make, then its own next one not', async () => {
    heard.length = 0;
    await app.app.db.sql.raw(`UPDATE ${WRITE_VERSIONS_TABLE} SET version = version + 1 WHERE uid = 'test::one'`);
    await versions.heardUpToNow();
    expect(heard.filter((uid) => uid.startsWith('test::'))).to.deep.equal(['test::one']);
    heard.length = 0;
    await bumped(['test::one']);
    await versions.heardUpToNow();
    expect(heard.filter((uid) => uid.startsWith('test::'))).to.deep.equal([]);
  });
});
