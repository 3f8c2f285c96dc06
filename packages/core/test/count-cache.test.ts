import { expect } from 'chai';
import { eachDatabase, startApp, withPostgres, type TestApp } from '@tessera/testing';

const FILES = {
  'src/api/post/content-types/post/schema.json': {
    kind: 'collectionType',
    collectionName: 'posts',
    info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      shelf: { type: 'relation', relation: 'manyToOne', target: 'api::shelf.shelf', inversedBy: 'posts' },
    },
  },
  'src/api/shelf/content-types/shelf/schema.json': {
    kind: 'collectionType',
    collectionName: 'shelves',
    info: { singularName: 'shelf', pluralName: 'shelves', displayName: 'Shelf' },
    options: { draftAndPublish: false },
    attributes: { label: { type: 'string' }, posts: { type: 'relation', relation: 'oneToMany', target: 'api::post.post', mappedBy: 'shelf' } },
  },
  'config/permissions.ts': `export default { public: ['api::post.post.find', 'api::shelf.shelf.find'] };\n`,
};

/**
 * List totals are cached per read plan and dropped by writes to the types the
 * plan depends on — in this process at once, in another process (a second
 * app on the same database) through LISTEN/NOTIFY or SQLite's data_version.
 */
eachDatabase('cached list totals', (dialect) => {
  let first: TestApp;
  let second: TestApp;
  let token: string;
  before(async () => {
    first = await startApp({ dialect, files: FILES });
    second = await startApp({ dialect, files: FILES, database: first.database });
    token = await first.fullAccessToken();
    const shelf = await first.post('/api/shelves', { data: { label: 'top' } }, { token });
    for (const title of ['a', 'b', 'c']) await first.post('/api/posts', { data: { title, shelf: shelf.body.data.id } }, { token });
  });
  after(async () => {
    await second?.stop({ keepDatabase: true });
    await first?.stop();
  });

  /** A statement that counts: a count of its own, or a page carrying its total (`count(*) over ()`, its ids first: deep-page.ts). */
  const counting = (sql: string) => /^select count\(|count\(\*\) over \(\)/i.test(sql);
  const total = async (app: TestApp, path: string) => (await app.get(path)).body.meta.pagination.total as number;
  const counts = async (app: TestApp, path: string) => {
    const queries: string[] = [];
    const stop = app.app.db.sql.onQuery((sql) => queries.push(sql));
    const value = await total(app, path);
    stop();
    return { value, counted: queries.filter(counting).length };
  };

  it('reuses a total until a write, and counts again right after one', async () => {
    expect(await counts(first, '/api/posts')).to.deep.equal({ value: 3, counted: 1 });
    expect(await counts(first, '/api/posts?pagination[page]=2')).to.deep.equal({ value: 3, counted: 0 });
    await first.post('/api/posts', { data: { title: 'd' } }, { token });
    expect(await counts(first, '/api/posts')).to.deep.equal({ value: 4, counted: 1 });
  });

  it('reads a missing total with its page, in one statement (count(*) over ()); past the last page it counts apart', async () => {
    const statements = async (path: string) => {
      const queries: string[] = [];
      const stop = first.app.db.sql.onQuery((sql) => queries.push(sql));
      const body = (await first.get(path)).body;
      stop();
      const kinds = queries.map((sql) => (/count\(\*\) over \(\)/i.test(sql) ? 'page+total' : /^select count\(/i.test(sql) ? 'count' : 'page'));
      return { titles: body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title), total: body.meta.pagination.total, kinds };
    };
    const all = (await first.get('/api/posts?pagination[pageSize]=100&sort=id:asc')).body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title);
    const sorted = 'sort=id:asc&pagination[pageSize]=2';
    expect(await statements(`/api/posts?${sorted}&filters[title][$ne]=one-pass`)).to.deep.equal({ titles: all.slice(0, 2), total: all.length, kinds: ['page+total'] });
    expect(await statements(`/api/posts?${sorted}&filters[title][$ne]=one-pass&pagination[page]=2`)).to.deep.equal({ titles: all.slice(2, 4), total: all.length, kinds: ['page'] });
    // A first page of nothing: the total is 0, with no count. A page past the end holds no count: counted apart.
    expect(await statements(`/api/posts?${sorted}&filters[title][$eq]=none-such`)).to.deep.equal({ titles: [], total: 0, kinds: ['page+total'] });
    expect(await statements(`/api/posts?${sorted}&filters[title][$ne]=past-end&pagination[page]=99`)).to.deep.equal({ titles: [], total: all.length, kinds: ['page+total', 'count'] });
    expect(await statements(`/api/posts?${sorted}&filters[title][$ne]=past-end&pagination[page]=99`)).to.deep.equal({ titles: [], total: all.length, kinds: ['page'] });
    // Offset pagination too, and a write's effect on the very next request.
    expect(await statements(`/api/posts?sort=id:asc&pagination[start]=1&pagination[limit]=1&pagination[withCount]=true&filters[title][$ne]=offset`)).to.deep.equal({ titles: all.slice(1, 2), total: all.length, kinds: ['page+total'] });
    const created = await first.post('/api/posts', { data: { title: 'one-pass' } }, { token });
    expect(await statements(`/api/posts?${sorted}&filters[title][$ne]=past-end&pagination[page]=99`)).to.deep.equal({ titles: [], total: all.length + 1, kinds: ['page+total', 'count'] });
    expect(await statements(`/api/posts?${sorted}&filters[title][$ne]=one-pass`)).to.deep.equal({ titles: all.slice(0, 2), total: all.length, kinds: ['page+total'] });
    await first.delete(`/api/posts/${created.body.data.id}`, { token });
  });

  it('hears each of its own writes once: the notification of a local write does not drop totals counted after it', async () => {
    const heard: string[] = [];
    const stop = first.app.db.onCommittedWrite((uid) => heard.push(uid));
    const created = await first.post('/api/posts', { data: { title: 'echo' } }, { token });
    const after = await counts(first, '/api/posts');
    // On PostgreSQL the write's NOTIFY also reaches this process's own listener, later than the commit.
    await new Promise((resolve) => setTimeout(resolve, 150));
    stop();
    expect(heard).to.deep.equal(['api::post.post']);
    expect(await counts(first, '/api/posts')).to.deep.equal({ value: after.value, counted: 0 });
    await first.delete(`/api/posts/${created.body.data.id}`, { token });
  });

  it('counts once for concurrent requests that find no total (no herd after a cold start or a write)', async () => {
    const path = '/api/posts?filters[title][$ne]=herd';
    const queries: string[] = [];
    const stop = first.app.db.sql.onQuery((sql) => queries.push(sql));
    const answers = await Promise.all(Array.from({ length: 8 }, () => total(first, path)));
    stop();
    expect(answers).to.deep.equal(Array(8).fill(answers[0]));
    expect(answers[0]).to.be.greaterThan(0);
    expect(queries.filter(counting)).to.have.length(1);
  });

  it('drops totals whose filters go through a type that was written', async () => {
    const path = '/api/posts?filters[shelf][label][$eq]=top';
    expect(await total(first, path)).to.equal(3);
    const shelf = (await first.get('/api/shelves')).body.data[0];
    await first.put(`/api/shelves/${shelf.id}`, { data: { label: 'bottom' } }, { token });
    expect(await total(first, path)).to.equal(0);
  });

  it('sees a write made by another process within its notification delay', async () => {
    expect(await total(second, '/api/posts')).to.equal(4);
    const started = Date.now();
    await first.post('/api/posts', { data: { title: 'e' } }, { token });
    // Polled until the other process sees it (the test's timeout bounds the wait): how soon is a speed, reported
    // with TESSERA_REPORT_TIMINGS, not a verdict a busy machine could change.
    let seen = await total(second, '/api/posts');
    while (seen !== 5) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      seen = await total(second, '/api/posts');
    }
    const delay = Date.now() - started;
    if (process.env.TESSERA_REPORT_TIMINGS) console.log(`      cross-process count delay (${dialect}): ${delay} ms`);
    expect(seen).to.equal(5);
  });

  if (dialect === 'postgres') {
    it('bypasses the cache while its listener is down, and recovers', async () => {
      expect(await total(second, '/api/posts')).to.equal(5);
      // Cut every LISTEN connection of this database: the next notification would be missed.
      const listen = `LISTEN "tessera_writes_${first.database.schema}"`;
      await withPostgres((client) => client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1', [listen]));
      await first.post('/api/posts', { data: { title: 'f' } }, { token });
      expect(await total(second, '/api/posts')).to.equal(6);
      await new Promise((resolve) => setTimeout(resolve, 400));
      await first.post('/api/posts', { data: { title: 'g' } }, { token });
      let seen = await total(second, '/api/posts');
      while (seen !== 7) seen = await total(second, '/api/posts');
      expect(seen).to.equal(7);
    });
  }

  it("includes another process's write in a total asked for as soon as that write was answered", async () => {
    // MySQL hears other processes' writes by polling: a total cached before the write must not be served until the
    // write has been heard, which a request waits for (mysql-write-versions.ts heardUpToNow) rather than for the poll.
    let expected = await total(second, '/api/posts?filters[title][$startsWith]=round');
    for (let round = 1; round <= 20; round++) {
      expect(await total(second, '/api/posts?filters[title][$startsWith]=round'), `round ${round}, cached`).to.equal(expected);
      const created = await first.post('/api/posts', { data: { title: `round ${round}` } }, { token });
      expect(created.status).to.equal(200);
      expected++;
      expect(await total(second, '/api/posts?filters[title][$startsWith]=round'), `round ${round}, right after the create`).to.equal(expected);
    }
  });
});
