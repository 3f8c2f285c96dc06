/**
 * A create answers the row its INSERT returned, without reading it back,
 * wherever the server returns inserted rows: PostgreSQL, SQLite and MariaDB
 * (10.5+, learnt at boot: MySQL 8 has no RETURNING and reads the row back).
 * The entry answered is the one a later read finds, value for value, for
 * every column type the codec decodes (dates, datetimes, decimals, booleans,
 * JSON, big integers).
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const UID = 'api::thing.thing';

eachDatabase('a create answers the row its INSERT returned', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({
      dialect,
      files: {
        'src/api/thing/content-types/thing/schema.json': {
          kind: 'collectionType',
          collectionName: 'things',
          info: { singularName: 'thing', pluralName: 'things', displayName: 'thing' },
          options: { draftAndPublish: true },
          attributes: {
            name: { type: 'string' },
            day: { type: 'date' },
            at: { type: 'datetime' },
            price: { type: 'decimal' },
            ratio: { type: 'float' },
            big: { type: 'biginteger' },
            flag: { type: 'boolean', default: true },
            meta: { type: 'json' },
            kind: { type: 'enumeration', enum: ['a', 'b'], default: 'b' },
          },
        },
      },
    });
  });
  after(() => app?.stop());

  it('with one INSERT … RETURNING and no read of the row; the answer is what a read finds', async () => {
    const statements: string[] = [];
    const stop = app.app.db.sql.onQuery((sql) => statements.push(sql));
    const created = await app.app.db.query(UID).create({
      data: { name: 'returned', day: '2024-02-29', at: '2024-01-31T23:59:59.999Z', price: 12.5, ratio: 0.25, big: '9007199254740993', meta: { a: [1, 'x'] }, publishedAt: null },
    });
    stop();
    const onTable = statements.filter((sql) => /\bthings\b/.test(sql));
    expect(onTable, onTable.join('\n')).to.have.length(1);
    expect(onTable[0]).to.match(/^insert into .*returning/i);
    expect(created).to.deep.equal(await app.app.db.query(UID).findOne({ where: { id: created.id } }));
    expect(created).to.deep.include({ name: 'returned', day: '2024-02-29', at: '2024-01-31T23:59:59.999Z', price: 12.5, ratio: 0.25, big: '9007199254740993', flag: true, kind: 'b', meta: { a: [1, 'x'] }, publishedAt: null });
  });
});
