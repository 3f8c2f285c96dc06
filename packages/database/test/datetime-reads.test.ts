/**
 * Datetimes read back as Strapi answers them (`toISOString()`), whatever form
 * the driver hands them in: SQLite's epoch milliseconds, PostgreSQL's text,
 * and on MySQL/MariaDB the server's text for Tessera's own reads (mysql2 would
 * build a Date per value, printed again at once) while server code's knex
 * (`strapi.db.connection`) still gets mysql2's Dates, as in Strapi.
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const UID = 'api::moment.moment';
/** Month ends (past the 28th: the Date way), a leap day, the first and last milliseconds, whole and fractional seconds. */
const MOMENTS = [
  '2024-01-31T23:59:59.999Z',
  '2024-02-29T12:00:00.000Z',
  '2023-12-31T23:59:59.001Z',
  '2024-03-28T08:07:06.500Z',
  '1970-01-01T00:00:00.000Z',
  '2000-06-15T10:20:30.040Z',
  '9999-12-31T23:59:59.999Z',
];

eachDatabase('datetimes read back as Strapi answers them', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({
      dialect,
      files: {
        'src/api/moment/content-types/moment/schema.json': {
          kind: 'collectionType',
          collectionName: 'moments',
          info: { singularName: 'moment', pluralName: 'moments', displayName: 'moment' },
          options: { draftAndPublish: false },
          attributes: { label: { type: 'string' }, at: { type: 'datetime' } },
        },
      },
    });
    for (const [index, at] of MOMENTS.entries()) await app.app.db.query(UID).create({ data: { label: String(index), at } });
  });
  after(() => app?.stop());

  it('each value as toISOString() gives it, through the query engine', async () => {
    const rows = await app.app.db.query(UID).findMany({ orderBy: { id: 'asc' }, select: ['at', 'createdAt'] });
    expect(rows.map((row) => row.at)).to.deep.equal(MOMENTS);
    for (const row of rows) expect(row.createdAt).to.equal(new Date(String(row.createdAt)).toISOString());
  });

  it("server code's knex gets the driver's own values: Dates on PostgreSQL and MySQL/MariaDB, epoch milliseconds on SQLite", async () => {
    const rows: Array<{ at: unknown }> = await app.app.db.connection('moments').select('at').orderBy('id');
    if (dialect === 'sqlite') expect(rows.map((row) => row.at)).to.deep.equal(MOMENTS.map((moment) => Date.parse(moment)));
    else expect(rows.map((row) => row.at instanceof Date && row.at.toISOString())).to.deep.equal(MOMENTS);
  });
});
