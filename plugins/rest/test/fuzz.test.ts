/**
 * Fuzzing the REST routes with generated hostile input: malformed and deeply
 * nested query strings, huge arrays, prototype keys, SQL fragments in keys and
 * values, NUL bytes, wrong types, huge numbers and odd unicode, against list,
 * get-one, create and update. A relational type (`branch`) adds the shapes
 * that cost work: long relation id lists (duplicates, connect/disconnect/set),
 * deep sort paths, pathological almost-numbers and deeply nested values in
 * string attributes. Every answer must be a 4xx error envelope or a
 * well-formed 200 without private fields — never a 5xx or a slow answer — and
 * the server must keep serving. The generator is seeded, so a failure replays
 * exactly.
 */
import { expect } from 'chai';
import { eachDatabase, seededRandom, type TestApp, type TestResponse } from '@tessera/testing';
import { ITEMS, startItemApp } from './fixture';

/** A self-referencing type with to-many links to items: the shapes that cost work per request. */
const BRANCH_FILES = {
  'src/api/branch/content-types/branch/schema.json': {
    kind: 'collectionType',
    collectionName: 'branches',
    info: { singularName: 'branch', pluralName: 'branches', displayName: 'Branch' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      ratio: { type: 'float' },
      price: { type: 'decimal' },
      parent: { type: 'relation', relation: 'manyToOne', target: 'api::branch.branch' },
      items: { type: 'relation', relation: 'manyToMany', target: 'api::item.item' },
    },
  },
};

/** Fixed by default; TESSERA_FUZZ_SEED explores other sequences. */
const SEED = Number(process.env.TESSERA_FUZZ_SEED ?? 0x7e55e7a);
const CASES_PER_ROUTE = 140;


const FIELDS = ['title', 'code', 'body', 'count', 'big', 'price', 'ratio', 'active', 'day', 'clock', 'moment', 'kind', 'data', 'secret', 'password', 'id', 'createdAt', 'updatedAt', 'publishedAt', 'nope'];
const OPERATORS = ['$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$contains', '$notContains', '$containsi', '$notContainsi', '$null', '$notNull', '$between', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$and', '$or', '$not', '$foo', '$where', '$raw'];
const HOSTILE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', "title; DROP TABLE items;--", "' OR 1=1 --", 'title"', 'ti\u0000tle', '𝔘𝔫𝔦', '../..', '', ' ', '0', '-1', '999999', '$', '*', 'items.id', 'title) OR (1=1'];
const VALUES = ['', 'abc', '1', '-1', '0', '1.5', '-0', '1e309', '9'.repeat(400), '0x10', 'NaN', 'Infinity', 'null', 'true', 'false', 't', "' OR '1'='1", "'; DROP TABLE items; --", '%', '_', '%_%', '\\', '\u0000', 'a\u0000b', 'É', 'é', '😀', 'ＡＢＣ', '\u202e', 'a'.repeat(3000), '2024-13-45', '2024-02-30', '25:61:61', '2024-01-01T00:00:00Z', '[object Object]', '{}', '[]', 'undefined', '*', 'asc', 'desc', 'title:desc', 'live', 'preview'];
const TOP_KEYS = ['filters', 'sort', 'fields', 'pagination', 'publicationState', 'populate', 'locale', '_q', 'where', '__proto__', 'constructor'];
const PAGINATION_KEYS = ['page', 'pageSize', 'start', 'limit', 'withCount', '__proto__'];
const RAW_QUERIES = ['%', '%%', '%E0%A4%A', 'a[=1', '[[[]]]=x', '&&&', '=', 'filters', 'filters=', 'filters[', 'filters]', 'filters[]=1', 'filters[][]=1', 'sort[]=', 'fields[]=', 'pagination[]=1', '__proto__[polluted]=1', 'constructor[prototype][polluted]=1', 'filters[__proto__][title]=x', 'filters[constructor][prototype][x]=1', 'sort=__proto__', 'fields=constructor', 'filters[title][$eq]=%00', 'filters[title][$in]=a&filters[title][$in]=b', 'filters[id][$between]=1'];

class Generator {
  constructor(private readonly random: () => number) {}

  int(max: number): number {
    return Math.floor(this.random() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  key(): string {
    const roll = this.random();
    if (roll < 0.45) return this.pick(FIELDS);
    if (roll < 0.8) return this.pick(OPERATORS);
    if (roll < 0.9) return String(this.int(this.chance(0.8) ? 5 : 1000));
    return this.pick(HOSTILE_KEYS);
  }

  value(): string {
    return this.pick(VALUES);
  }

  /** One `a[b][c]=v` parameter; sometimes very deep or a very long index list. */
  parameter(): string {
    const top = this.pick(TOP_KEYS);
    const roll = this.random();
    if (roll < 0.08) return `${top}${'[$and][0]'.repeat(5 + this.int(40))}[title]=x`;
    if (roll < 0.14) {
      const size = 50 + this.int(400);
      return Array.from({ length: size }, (_, i) => `${top}[id][$in][${i}]=${i}`).join('&');
    }
    if (roll < 0.18) return `${top}[${this.int(10_000)}]=${encodeURIComponent(this.value())}`;
    const depth = top === 'pagination' ? 1 : this.int(6);
    let path = top;
    for (let i = 0; i < depth; i += 1) {
      const segment = top === 'pagination' && i === 0 ? this.pick(PAGINATION_KEYS) : this.key();
      path += `[${this.chance(0.85) ? encodeURIComponent(segment) : segment}]`;
    }
    const value = this.value();
    return `${path}=${this.chance(0.9) ? encodeURIComponent(value) : value}`;
  }

  query(): string {
    if (this.chance(0.08)) return this.pick(RAW_QUERIES);
    return Array.from({ length: 1 + this.int(5) }, () => this.parameter()).join('&');
  }

  /** A JSON value of some type, sometimes hostile. */
  json(depth = 0): unknown {
    const roll = this.random();
    if (depth > 3 || roll < 0.45) return this.scalar();
    // Long arrays hold scalars only, so bodies stay under the 1mb JSON limit (oversize bodies have their own test).
    if (roll < 0.52) return Array.from({ length: this.int(2000) }, () => this.scalar());
    if (roll < 0.6) return Array.from({ length: this.int(4) }, () => this.json(depth + 1));
    if (roll < 0.65) return deep(this.int(2000));
    const object: Record<string, unknown> = {};
    for (let i = 0; i < 1 + this.int(4); i += 1) object[this.key()] = this.json(depth + 1);
    return object;
  }

  scalar(): unknown {
    const roll = this.random();
    if (roll < 0.35) return this.value();
    if (roll < 0.6) return this.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 2 ** 31, -(2 ** 31) - 1, Number.MIN_VALUE, 123456789.123456]);
    if (roll < 0.75) return this.pick([true, false, null]);
    return this.pick([{}, [], '\u0000\u0000', ' ', '2024-01-01', '12:30', 'alpha', 'gamma', 'ALPHA']);
  }

  /** A request body: usually `{ data: {...} }` with fuzzed attributes, sometimes raw garbage. */
  body(): { json?: unknown; raw?: string } {
    const roll = this.random();
    if (roll < 0.05) return { raw: `{"data":{"${this.pick(['title', 'code', 'body', 'kind'])}":${this.nestedText(this.int(150_000))}}}` };
    if (roll < 0.1) return { raw: this.pick(['', '{', 'null', '"x"', '[]', '{"data":', '{"data":{"title":"\\ud800"}}', '{"__proto__":{"data":{"title":"x"}}}', '{"data":{"__proto__":{"title":"x"}}}', '{"data":{"constructor":{"prototype":{"x":1}}}}', '\u0000']) };
    if (roll < 0.2) return { json: this.json() };
    const data: Record<string, unknown> = {};
    for (let i = 0; i < 1 + this.int(5); i += 1) data[this.chance(0.75) ? this.pick(FIELDS) : this.key()] = this.chance(0.3) ? this.json(1) : this.scalar();
    return { json: { data } };
  }

  /** Almost a number: long digit runs that end badly (a backtracking pattern's worst case), or fine. */
  almostNumber(): string {
    const digits = () => '1'.repeat(1 + this.int(this.chance(0.5) ? 9_000 : 50));
    const roll = this.random();
    if (roll < 0.3) return `${digits()}x`;
    if (roll < 0.5) return `${digits()}.${digits()}x`;
    if (roll < 0.65) return `-${digits()}e${digits()}${this.pick(['', 'x', '.', 'e'])}`;
    if (roll < 0.8) return `.${digits()}${this.pick(['', '.', '-'])}`;
    return this.pick(['1', '-1.5', '.5', '1e3', '2.5E-2', '1.', '-.', 'e']);
  }

  /** A nested JSON text (arrays or objects) far deeper than any serialiser's stack. */
  nestedText(depth: number): string {
    const objects = Math.floor(depth / 4);
    return this.chance(0.5) ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(objects)}1${'}'.repeat(objects)}`;
  }

  /** A branch list query: deep sort paths, pathological number filters, or the generic fuzz. */
  branchQuery(): string {
    const roll = this.random();
    if (roll < 0.4) {
      const keys = Array.from({ length: 1 + this.int(4) }, () => `${'parent.'.repeat(this.int(this.chance(0.5) ? 60 : 12))}${this.pick(['title', 'ratio', 'id', 'items', 'nope'])}${this.pick(['', ':asc', ':desc', ':up'])}`);
      return `sort=${keys.join(',')}`;
    }
    if (roll < 0.8) {
      const field = this.pick(['ratio', 'price', 'id', 'parent', 'title']);
      return `filters[${field}][${this.pick(['$eq', '$lt', '$gte', '$in', '$between', '$contains'])}]=${this.almostNumber()}&pagination[pageSize]=5`;
    }
    return this.query();
  }

  /** A branch write: long id lists in every form, with duplicates and junk; nested values in the title. */
  branchBody(itemIds: number[], branchIds: number[]): { json?: unknown; raw?: string } {
    const roll = this.random();
    if (roll < 0.15) return { raw: `{"data":{"title":${this.nestedText(this.int(200_000))},"items":[${itemIds.join(',')}]}}` };
    const data: Record<string, unknown> = { title: this.chance(0.8) ? `branch ${this.int(1000)}` : this.json(1) };
    if (this.chance(0.7)) data.items = this.idInput(itemIds);
    if (this.chance(0.4)) data.parent = this.chance(0.6) ? this.pick(branchIds) : this.idInput(branchIds);
    if (this.chance(0.3)) data.ratio = this.chance(0.5) ? this.almostNumber() : this.scalar();
    return { json: { data } };
  }

  /** A relation value: short valid lists, or long ones (beyond the cap, duplicated, unknown ids) in any form. */
  idInput(known: number[]): unknown {
    const long = this.chance(0.5);
    const size = long ? this.int(this.chance(0.3) ? 60_000 : 1_500) : this.int(known.length + 1);
    const ids = Array.from({ length: size }, (_, index) => (long ? (this.chance(0.7) ? 1 + this.int(size) : this.pick(known)) : known[index % known.length]));
    const item = (id: number) => (this.chance(0.3) ? { id, ...(this.chance(0.3) ? { position: this.pick([{ start: true }, { end: true }, { before: this.pick(known) }, { after: id }]) } : {}) } : id);
    const roll = this.random();
    if (roll < 0.35) return ids;
    if (roll < 0.55) return { set: ids.map(item) };
    if (roll < 0.85) return { connect: ids.map(item), ...(this.chance(0.5) ? { disconnect: ids.slice(0, this.int(ids.length + 1)) } : {}) };
    return { disconnect: ids };
  }

  id(ids: number[]): string {
    const roll = this.random();
    if (roll < 0.5) return String(this.pick(ids));
    return encodeURIComponent(this.pick(['0', '-1', '1.0', '1e2', '99999999999999999999', 'abc', "1' OR '1'='1", '1;DROP TABLE items', '%00', '__proto__', 'constructor', '😀', ' 1', '0x1']));
  }
}

function deep(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = { nested: value };
  return value;
}

/**
 * A transport failure (reset) is a failure too: name the request that caused it. A hang ends at the test's
 * timeout; how fast an answer comes is no verdict here (a busy machine is slow), `npm run bench` measures it.
 */
async function send(label: string, request: () => Promise<TestResponse>): Promise<TestResponse> {
  try {
    return await request();
  } catch (error) {
    throw new Error(`${label}: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`);
  }
}

type Route = 'list' | 'get-one' | 'create' | 'update' | 'branch-list' | 'branch-write';
const ROUTES: Route[] = ['list', 'get-one', 'create', 'update', 'branch-list', 'branch-write'];

function checkAnswer(route: Route, response: TestResponse, label: string): string | null {
  if (response.status >= 500) return `${label}: ${response.status} ${response.text.slice(0, 300)}`;
  // Stored passwords never appear anywhere; private keys never in a success.
  if (/pw-(one|two|three|four|five|six|seven|eight)/.test(response.text)) return `${label}: a stored password leaked`;
  if (response.status === 200 && /"(secret|password)":/.test(response.text)) return `${label}: private attribute in a success`;
  const body = response.body;
  if (response.status >= 400) {
    const ok = body && body.data === null && body.error && body.error.status === response.status &&
      typeof body.error.name === 'string' && typeof body.error.message === 'string' && typeof body.error.details === 'object';
    return ok ? null : `${label}: bad error envelope ${response.status} ${response.text.slice(0, 300)}`;
  }
  if (response.status !== 200) return `${label}: unexpected status ${response.status}`;
  if (route === 'list' || route === 'branch-list') {
    const ok = Array.isArray(body?.data) && body.meta && typeof body.meta.pagination === 'object' &&
      body.data.every((entry: { id: unknown; attributes: unknown }) => typeof entry.id === 'number' && typeof entry.attributes === 'object');
    return ok ? null : `${label}: malformed list ${response.text.slice(0, 300)}`;
  }
  const ok = body?.data && typeof body.data.id === 'number' && typeof body.data.attributes === 'object' && body.meta && typeof body.meta === 'object';
  return ok ? null : `${label}: malformed entry ${response.text.slice(0, 300)}`;
}

eachDatabase('REST fuzzing', (dialect) => {
  let app: TestApp;
  let token: string;
  let ids: number[];
  let branchIds: number[];
  before(async () => {
    ({ app, token, ids } = await startItemApp(dialect, { files: BRANCH_FILES }));
    branchIds = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await app.post('/api/branches', { data: { title: `seed ${i}`, ratio: i / 2, parent: branchIds[i - 1] ?? null, items: ids.slice(0, i + 1) } }, { token });
      branchIds.push(response.body.data.id);
    }
  });
  after(() => app?.stop());

  it(`answers ${CASES_PER_ROUTE * ROUTES.length} generated hostile requests with 4xx envelopes or correct 200s, never a 5xx`, async function () {
    this.timeout(240_000);
    const generate = new Generator(seededRandom(SEED));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    for (let i = 0; i < CASES_PER_ROUTE; i += 1) {
      for (const route of ROUTES) {
        const query = route === 'branch-list' ? generate.branchQuery() : generate.query();
        const auth = route === 'list' || route === 'get-one' ? (generate.chance(0.5) ? { token } : {}) : { token };
        let response: TestResponse;
        let label: string;
        if (route === 'branch-list') {
          const path = `/api/branches?${query}`;
          label = `GET ${path.slice(0, 300)}`;
          response = await send(label, () => app.get(path, { token }));
        } else if (route === 'branch-write') {
          const body = generate.branchBody(ids.slice(1), branchIds);
          const create = generate.chance(0.5);
          const path = create ? '/api/branches' : `/api/branches/${generate.pick(branchIds)}`;
          label = `${create ? 'POST' : 'PUT'} ${path} ${(body.raw ?? JSON.stringify(body.json) ?? '').slice(0, 200)}`;
          response = await send(label, () => app.request(create ? 'POST' : 'PUT', path, { token, ...(body.raw !== undefined ? { rawBody: body.raw } : { body: body.json }) }));
        } else if (route === 'list' || route === 'get-one') {
          const path = route === 'list' ? `/api/items?${query}` : `/api/items/${generate.id(ids)}?${query}`;
          label = `GET ${path.slice(0, 300)}`;
          response = await send(label, () => app.get(path, auth));
        } else {
          const body = generate.body();
          // The first seed row is never a write target: the last test reads it back intact.
          const path = route === 'create' ? `/api/items?${generate.chance(0.3) ? query : ''}` : `/api/items/${generate.id(ids.slice(1))}`;
          label = `${route} ${path.slice(0, 200)} ${(body.raw ?? JSON.stringify(body.json) ?? '').slice(0, 200)}`;
          response = await send(label, () => app.request(route === 'create' ? 'POST' : 'PUT', path, { ...auth, ...(body.raw !== undefined ? { rawBody: body.raw } : { body: body.json }) }));
        }
        sent += 1;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const failure = checkAnswer(route, response, label);
        if (failure) failures.push(failure);
      }
    }
    expect(failures.slice(0, 10)).to.deep.equal([]);
    expect(sent).to.be.at.least(800);
    // The generator must exercise both outcomes, or it proves little.
    expect(statuses.get(200) ?? 0).to.be.greaterThan(20);
    expect([...statuses.keys()].filter((status) => status >= 400).length).to.be.greaterThan(1);
  });

  it('an oversize body is a 413 envelope', async () => {
    const huge = JSON.stringify({ data: { title: 'x'.repeat(2 * 1024 * 1024) } });
    const response = await app.request('POST', '/api/items', { rawBody: huge, token });
    expect(response.status).to.equal(413);
    expect(response.body.error.name).to.equal('PayloadTooLargeError');
  });

  it('prototype keys never pollute objects', () => {
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(Object.prototype).not.to.have.property('x');
  });

  it('still serves normal requests afterwards, with the seed rows intact', async () => {
    const response = await app.get(`/api/items/${ids[0]}?fields[0]=title&fields[1]=code`);
    expect(response.status).to.equal(200);
    expect(response.body.data.attributes.code).to.equal('c1');
    const list = await app.get('/api/items?filters[code][$in][0]=c1&filters[code][$in][1]=nope&fields[0]=code');
    expect(list.body.data.map((entry: { attributes: { code: string } }) => entry.attributes.code)).to.deep.equal(['c1']);
    const created = await app.post('/api/items', { data: { title: 'after the storm', code: 'after' } }, { token });
    expect(created.status).to.equal(200);
    expect(ITEMS.length).to.equal(8);
  });
});
