import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

/**
 * Index-backed substring search gives exactly the answers of the scan: the
 * same random Unicode rows in an indexed and an unindexed type, the same
 * random patterns through every text operator, on both databases.
 */
const schema = (name: string, search: boolean) => ({
  kind: 'collectionType',
  collectionName: `${name}s`,
  info: { singularName: name, pluralName: `${name}s`, displayName: name },
  options: { draftAndPublish: false },
  attributes: {
    key: { type: 'integer' },
    title: { type: 'string', ...(search ? { pluginOptions: { tessera: { search: true } } } : {}) },
    views: { type: 'integer', index: true },
  },
});

const FILES = {
  'src/api/indexed/content-types/indexed/schema.json': schema('indexed', true),
  'src/api/plain/content-types/plain/schema.json': schema('plain', false),
};

/** A page looked for in the head of the sort order (search-window.ts). */
const WINDOWED = /from \(select `t0`\.\* from `indexeds` as `t0` order by/;

/** Characters chosen to break naive folding: Kelvin sign, dotted I, sharp s, final sigma, ligature, wildcards. */
const ALPHABET = ['a', 'b', 'c', 'A', 'B', 'C', 'x', 'X', 'k', 'K', 'i', 'I', ' ', '%', '_', '\\', '\u212A', '\u0130', 'ß', 'Σ', 'σ', 'ς', 'Å', 'å', 'é', 'É', 'ǅ', '😀'];

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

const OPERATORS = ['$contains', '$containsi', '$notContains', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$eqi'];

eachDatabase('index-backed text search', (dialect) => {
  let app: TestApp;
  const next = random(20261123);
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
  const text = (min: number, max: number) => Array.from({ length: min + Math.floor(next() * (max - min + 1)) }, () => pick(ALPHABET)).join('');
  const rows: string[] = [];

  before(async () => {
    app = await startApp({ dialect, files: FILES });
    for (let key = 0; key < 120; key++) rows.push(text(0, 14));
    rows.push('Kelvin \u212Aelvin', 'İstanbul ABİ', 'STRASSE straße', 'Σίσυφος', 'a_b%c\\d');
    await app.app.db.transaction(async () => {
      for (const [key, title] of rows.entries()) {
        for (const uid of ['api::indexed.indexed', 'api::plain.plain']) await app.app.entityService.create(uid, { data: { key, title, views: key % 7 } });
      }
    });
  });
  after(() => app?.stop());

  const keys = async (uid: string, filters: unknown) =>
    ((await app.app.entityService.findMany(uid, { filters, fields: ['key'], sort: 'key' })) as unknown as Array<{ key: number }>).map((row) => row.key);

  if (dialect === 'mysql') {
    it('creates no search index on MySQL (text matches scan, with the same answers)', async () => {
      const found = await app.app.db.sql.raw(`SELECT index_name FROM information_schema.statistics WHERE table_schema = DATABASE() AND index_name LIKE '%trgm'`);
      expect(found).to.have.length(0);
    });
  }

  if (dialect !== 'mysql') it('creates the search index (FTS5 trigram table / pg_trgm GIN index)', async () => {
    const connection = app.app.db.sql;
    const found =
      dialect === 'sqlite'
        ? await connection.raw(`SELECT name FROM sqlite_master WHERE name = 'indexeds_search'`)
        : await connection.raw(`SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'indexeds_title_trgm'`);
    expect(found).to.have.length(1);
    expect(await connection.raw(dialect === 'sqlite' ? `SELECT name FROM sqlite_master WHERE name = 'plains_search'` : `SELECT 1 FROM pg_indexes WHERE indexname = 'plains_title_trgm'`)).to.have.length(0);
  });

  it('answers every operator exactly as the scan does, on random Unicode rows and patterns', async () => {
    const patterns: string[] = [];
    for (let n = 0; n < 50; n++) {
      const row = pick(rows);
      const start = Math.floor(next() * Math.max(1, row.length));
      const piece = [...row].slice(start, start + 3 + Math.floor(next() * 4)).join('');
      patterns.push(next() < 0.3 ? piece.toUpperCase() : piece);
    }
    // Two characters are looked up through the trigrams that begin with them (search-candidates.ts), one scans.
    for (let n = 0; n < 20; n++) {
      const row = pick(rows.filter((candidate) => candidate.length >= 2));
      const start = Math.floor(next() * (row.length - 1));
      const piece = [...row].slice(start, start + 1 + Math.floor(next() * 2)).join('');
      patterns.push(next() < 0.3 ? piece.toUpperCase() : piece);
    }
    patterns.push('kel', 'KEL', 'abi', 'stan', 'ße', 'ss', 'σίσ', '%c\\', 'a_b', 'xyz', text(3, 6), text(3, 6));
    patterns.push('el', 'IN', 'in', 'e%', 'ab', 'Ka', 'n\u0001', 'zq', text(2, 2), text(2, 2));
    let compared = 0;
    for (const pattern of patterns) {
      for (const operator of OPERATORS) {
        const filters = { title: { [operator]: pattern } };
        const indexed = await keys('api::indexed.indexed', filters);
        const plain = await keys('api::plain.plain', filters);
        expect(indexed, `${operator} ${JSON.stringify(pattern)}`).to.deep.equal(plain);
        compared++;
      }
    }
    expect(compared).to.equal(patterns.length * OPERATORS.length);
  });

  it('uses the index for _q over searched attributes, and the plan cache still builds no SQL the second time', async () => {
    const first = await app.get('/api/indexeds?_q=stan&fields[0]=key', { token: await app.fullAccessToken() });
    expect(first.status).to.equal(200);
    expect(first.body.data.map((entry: { attributes: { key: number } }) => entry.attributes.key)).to.include(rows.indexOf('İstanbul ABİ'));
  });

  if (dialect === 'sqlite') {
    it('keeps the search table in step with writes (triggers) and plans through it', async () => {
      const created = await app.app.entityService.create('api::indexed.indexed', { data: { key: 999, title: 'Needle in haystack, yo' } });
      expect(await keys('api::indexed.indexed', { title: { $containsi: 'NEEDLE' } })).to.deep.equal([999]);
      // Two characters at the very end of the text: found through the trigram that the copy's padding completes.
      expect(await keys('api::indexed.indexed', { title: { $containsi: 'YO' } })).to.deep.equal([999]);
      await app.app.entityService.update('api::indexed.indexed', created.id, { data: { title: 'Pin in haystack' } });
      expect(await keys('api::indexed.indexed', { title: { $containsi: 'needle' } })).to.deep.equal([]);
      expect(await keys('api::indexed.indexed', { title: { $containsi: 'pin in' } })).to.deep.equal([999]);
      expect(await keys('api::indexed.indexed', { title: { $contains: 'Pi' } })).to.deep.equal([999]);
      expect(await keys('api::indexed.indexed', { title: { $containsi: 'yo' } })).to.deep.equal([]);
      await app.app.entityService.delete('api::indexed.indexed', created.id);
      expect(await keys('api::indexed.indexed', { title: { $containsi: 'pin in' } })).to.deep.equal([]);
      const plan = await app.app.db.sql.raw(
        `EXPLAIN QUERY PLAN SELECT id FROM indexeds WHERE id IN (SELECT rowid FROM indexeds_search WHERE title LIKE '%hay%')`,
      );
      expect(plan.map((row) => String(row.detail)).join(' | ')).to.match(/VIRTUAL TABLE INDEX/);
    });

    it('pages a search from the head of the sort order when that holds the page, and exactly as the scan pages it', async () => {
      // More rows than the window (search-window.ts): pages of dense patterns (`alpha`: 1,200 of 2,525 rows; `beta 1`:
      // 556) are looked for in it; rare ones (`rare`: 48; `zzz`: none), counted first, go straight to the search table.
      const words = ['alpha', 'beta'];
      const extra = Array.from({ length: 2400 }, (_, n) => ({ key: 10_000 + n, title: `${n % 50 === 0 ? 'rare ' : ''}${words[n % 2]} ${n}`, views: (n * 7919) % 1000 }));
      const connection = app.app.db.sql;
      for (let start = 0; start < extra.length; start += 200) {
        await connection.run(connection.knex('indexeds').insert(extra.slice(start, start + 200)));
        await connection.run(connection.knex('plains').insert(extra.slice(start, start + 200)));
      }
      const token = await app.fullAccessToken();
      const page = async (plural: string, query: string) => {
        const response = await app.get(`/api/${plural}?${query}&fields[0]=key`, { token });
        expect(response.status, query).to.equal(200);
        return { keys: response.body.data.map((entry: { attributes: { key: number } }) => entry.attributes.key), total: response.body.meta.pagination.total };
      };
      const sql: string[] = [];
      const windowPatterns = new Set<unknown>();
      const unsubscribe = app.app.db.sql.onQuery((statement, bindings) => {
        sql.push(statement);
        if (WINDOWED.test(statement)) windowPatterns.add(bindings.find((binding) => typeof binding === 'string'));
      });
      try {
        for (const pattern of ['ALPHA', 'rare', 'beta 1', 'zzz']) {
          for (const sort of ['sort=views:desc', 'sort=views:asc', 'sort=id']) {
            for (const number of [1, 2, 4]) {
              const query = `filters[title][$containsi]=${encodeURIComponent(pattern)}&${sort}&pagination[pageSize]=20&pagination[page]=${number}`;
              expect(await page('indexeds', query), query).to.deep.equal(await page('plains', query));
            }
          }
        }
      } finally {
        unsubscribe();
      }
      const searched = sql.filter((statement) => statement.includes('`indexeds_search`') && !statement.startsWith('select count'));
      expect([...windowPatterns], 'the patterns whose pages were looked for in the window').to.deep.equal(['%alpha%', '%beta 1%']);
      expect(searched.length, 'pages of sparse patterns, found through the search table').to.be.greaterThan(0);
    });
  }

  if (dialect === 'postgres') {
    it('matches a value with no letter without folding (LIKE), and folds a value with one (ILIKE)', async () => {
      const sql: string[] = [];
      const unsubscribe = app.app.db.sql.onQuery((statement) => sql.push(statement));
      try {
        await keys('api::plain.plain', { title: { $containsi: '%_ 9' } });
        await keys('api::plain.plain', { title: { $containsi: 'k9' } });
      } finally {
        unsubscribe();
      }
      const reads = sql.filter((statement) => statement.includes('from "plains"'));
      expect(reads).to.have.length(2);
      expect(reads[0]).to.match(/"title" LIKE \$1 ESCAPE/);
      expect(reads[1]).to.match(/"title" ILIKE \$1 ESCAPE/);
    });

    it('sorts as the indexes are built: own id without a NULLS clause (the primary key serves it), declared indexes NULLS FIRST', async () => {
      const sql: string[] = [];
      const unsubscribe = app.app.db.sql.onQuery((statement) => sql.push(statement));
      try {
        await app.get('/api/indexeds?fields[0]=key&sort=views:desc', { token: await app.fullAccessToken() });
      } finally {
        unsubscribe();
      }
      const list = sql.find((statement) => statement.includes('from "indexeds"') && statement.includes('order by'))!;
      expect(list).to.match(/order by "t0"\."views" desc NULLS LAST, "t0"\."id" asc limit/);
      const [index] = await app.app.db.sql.raw(`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'indexeds_views_index'`);
      expect(String(index.indexdef)).to.match(/\(views NULLS FIRST\)$/);
      // With the index matching the sort, Postgres walks it for ORDER BY … LIMIT instead of sorting every row.
      // (The table is small: with sequential scans allowed Postgres could rightly prefer one. One transaction: one connection.)
      const plan = await app.app.db.transaction(async () => {
        await app.app.db.sql.raw('SET LOCAL enable_seqscan = off');
        return app.app.db.sql.raw(`EXPLAIN SELECT id FROM indexeds ORDER BY views DESC NULLS LAST LIMIT 5`);
      });
      expect(plan.map((row) => String(row['QUERY PLAN'])).join(' | ')).to.match(/Index Scan Backward using indexeds_views_index/);
    });
  }
});
