import { expect } from 'chai';
import qs from 'qs';
import { EXAMPLE_APP, eachDatabase, seededRandom, startApp, type TestApp } from '@tessera/testing';
import { entriesIn, withSeed } from './seeded';

/**
 * A property over random populate trees on the example's seed, for three
 * callers (anonymous, a custom API token, a users-permissions JWT): every
 * answer is a 200 within the entry budget or a 400 ValidationError — never a
 * 500 — and walking the JSON with the schema finds no draft (under `live`),
 * no entry of a type the caller may not read and no private attribute.
 *
 * Seeded PRNG: the seed is printed; PROPERTY_SEED=<n> replays it.
 */
const LIMIT = 250;
const CASES_PER_CALLER = 30;
const MAX_DEPTH = 5;

const PUBLIC = [
  'api::article.article.find', 'api::article.article.findOne', 'api::category.category.find', 'api::category.category.findOne',
  'api::tag.tag.find', 'api::tag.tag.findOne', 'api::writer.writer.find', 'api::writer.writer.findOne',
  'api::homepage.homepage.find', 'api::page.page.find', 'api::page.page.findOne',
];
/** The JWT's role reads what the public cannot (writer profiles) and not what it can (tags, categories). */
const AUTHENTICATED = ['api::article.article.find', 'api::page.page.find', 'api::writer.writer.find', 'api::writer-profile.writer-profile.find', 'plugin::users-permissions.user.me'];
const TOKEN = ['api::article.article.find', 'api::tag.tag.find', 'api::category.category.find'];
const PERMISSIONS_FILE = `export default { public: ${JSON.stringify(PUBLIC)}, authenticated: ${JSON.stringify(AUTHENTICATED)} };\n`;

type Attribute = { type: string; target?: string; component?: string; components?: string[]; private?: boolean; relation?: string };
type Schema = { attributes: Record<string, Attribute> };
type Random = () => number;

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const TIMESTAMPS = new Set(['createdAt', 'updatedAt', 'publishedAt', 'locale']);
const LINK_TYPES = new Set(['relation', 'media', 'component', 'dynamiczone']);

interface Caller {
  name: string;
  token?: string;
  readable: ReadonlySet<string>;
  mayPreview: boolean;
}

eachDatabase('populate property: random trees on the seed stay in budget, hide drafts and unreadable types', (dialect) => {
  let app: TestApp;
  let callers: Caller[];
  const drafts = new Map<string, Set<number>>();
  const seed = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : Math.floor(Math.random() * 2 ** 31);

  before(async function () {
    console.log(`      populate property seed: ${seed} (PROPERTY_SEED=${seed} replays it)`);
    app = await withSeed(() =>
      startApp({
        dialect,
        from: EXAMPLE_APP,
        files: { 'config/permissions.ts': PERMISSIONS_FILE },
        config: { api: { rest: { defaultLimit: 25, maxLimit: 100, maxPopulatedEntries: LIMIT } } },
      }),
    );
    for (const uid of app.app.contentTypes.keys()) {
      if (!uid.startsWith('api::') || !app.app.contentType(uid)!.options?.draftAndPublish) continue;
      const rows = await app.app.db.query(uid).findMany({ where: { publishedAt: { $null: true } }, select: ['id'] });
      drafts.set(uid, new Set(rows.map((row) => row.id)));
    }
    expect(drafts.get('api::article.article')?.size).to.equal(5);
    const { accessKey } = await app.app.apiTokens.create({ name: 'property', type: 'custom', permissions: TOKEN });
    const registered = await app.post('/api/auth/local/register', { username: 'property', email: 'property@example.com', password: 'Property-Test-1' });
    expect(registered.status, registered.text).to.equal(200);
    const readableOf = (actions: string[]) => new Set(actions.filter((action) => action.endsWith('.find')).map((action) => action.slice(0, -'.find'.length)));
    callers = [
      { name: 'anonymous', readable: readableOf(PUBLIC), mayPreview: false },
      { name: 'API token', token: accessKey, readable: readableOf(TOKEN), mayPreview: true },
      { name: 'JWT', token: registered.body.jwt, readable: readableOf(AUTHENTICATED), mayPreview: true },
    ];
  });
  after(() => app?.stop());

  const schemaOf = (uid: string): Schema => (app.app.contentTypes.has(uid) ? app.app.contentType(uid) : app.app.components.get(uid)) as unknown as Schema;
  const links = (uid: string) => Object.entries(schemaOf(uid).attributes).filter(([, attribute]) => LINK_TYPES.has(attribute.type));
  const scalars = (uid: string) => Object.entries(schemaOf(uid).attributes).filter(([, attribute]) => !LINK_TYPES.has(attribute.type) && !attribute.private).map(([name]) => name);

  /** A random populate value for the links of `uid` (relations, media, components, dynamic zones), `depth` levels at most. */
  function populateOf(random: Random, uid: string, depth: number): unknown {
    if (random() < 0.1) return '*';
    const result: Record<string, unknown> = {};
    const candidates = links(uid);
    const count = 1 + Math.floor(random() * Math.min(3, candidates.length));
    for (let index = 0; index < count; index++) {
      const [name, attribute] = pick(random, candidates);
      result[name] = linkPopulate(random, attribute, depth);
    }
    return result;
  }

  function linkPopulate(random: Random, attribute: Attribute, depth: number): unknown {
    if (depth <= 1 || random() < 0.25) return true;
    if (attribute.type === 'relation') {
      if (random() < 0.1 && attribute.relation?.endsWith('Many')) return { count: true };
      const entry: Record<string, unknown> = { populate: populateOf(random, attribute.target!, depth - 1) };
      if (random() < 0.4) entry.fields = [pick(random, scalars(attribute.target!))];
      return entry;
    }
    if (attribute.type === 'component') return links(attribute.component!).length > 0 ? { populate: populateOf(random, attribute.component!, depth - 1) } : true;
    if (attribute.type === 'dynamiczone') return { populate: '*' };
    return true;
  }

  /** Problems found walking one entry of `uid` as `caller` sees it. */
  function walkEntry(uid: string, entry: { id: number; attributes: Record<string, unknown> }, caller: Caller, live: boolean, path: string, problems: string[]): void {
    if (!caller.readable.has(uid) && uid !== 'plugin::upload.file') problems.push(`${path}: ${uid} is not readable by ${caller.name}`);
    if (live && drafts.get(uid)?.has(entry.id)) problems.push(`${path}: ${uid} ${entry.id} is a draft`);
    walkAttributes(uid, entry.attributes, caller, live, path, problems);
  }

  function walkAttributes(uid: string, values: Record<string, unknown>, caller: Caller, live: boolean, path: string, problems: string[]): void {
    const schema = schemaOf(uid);
    for (const [name, value] of Object.entries(values)) {
      const attribute = schema.attributes[name];
      if (!attribute) {
        if (!TIMESTAMPS.has(name) && !(name === 'id' || name === '__component')) problems.push(`${path}.${name}: not an attribute of ${uid}`);
        continue;
      }
      if (attribute.private) problems.push(`${path}.${name}: private`);
      if (attribute.type === 'relation' || attribute.type === 'media') {
        const data = (value as { data: unknown }).data;
        const target = attribute.type === 'media' ? 'plugin::upload.file' : attribute.target!;
        const list = Array.isArray(data) ? data : data && 'id' in (data as object) ? [data] : [];
        for (const item of list) walkEntry(target, item as { id: number; attributes: Record<string, unknown> }, caller, live, `${path}.${name}`, problems);
      } else if (attribute.type === 'component' || attribute.type === 'dynamiczone') {
        const list = Array.isArray(value) ? value : value ? [value] : [];
        for (const item of list as Array<Record<string, unknown>>) {
          const component = attribute.type === 'component' ? attribute.component! : String(item.__component);
          walkAttributes(component, item, caller, live, `${path}.${name}`, problems);
        }
      }
    }
  }

  it(`answers ${CASES_PER_CALLER} random populate trees per caller: 200 within ${LIMIT} entries or 400, nothing hidden shown`, async function () {
    this.timeout(120000);
    const random = seededRandom(seed);
    const statuses = new Map<number, number>();
    for (const caller of callers) {
      const roots = [...caller.readable].filter((uid) => app.app.contentType(uid)!.kind === 'collectionType');
      for (let index = 0; index < CASES_PER_CALLER; index++) {
        const uid = pick(random, roots);
        const preview = caller.mayPreview && random() < 0.2;
        const params = {
          populate: populateOf(random, uid, 1 + Math.floor(random() * MAX_DEPTH)),
          pagination: { pageSize: 1 + Math.floor(random() * 100) },
          ...(preview ? { publicationState: 'preview' } : {}),
        };
        const url = `/api/${app.app.contentType(uid)!.info.pluralName}?${qs.stringify(params, { encodeValuesOnly: true })}`;
        const response = await app.get(url, { token: caller.token });
        const label = `seed ${seed}, ${caller.name}: GET ${decodeURIComponent(url)}`;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect([200, 400], `${label} → ${response.text.slice(0, 300)}`).to.include(response.status);
        if (response.status === 400) {
          expect(response.body.error.name, label).to.equal('ValidationError');
          continue;
        }
        expect(entriesIn(response.body.data), label).to.be.at.most(LIMIT);
        const problems: string[] = [];
        for (const entry of response.body.data) walkEntry(uid, entry, caller, !preview, uid, problems);
        expect(problems, label).to.deep.equal([]);
      }
    }
    console.log(`      answers: ${[...statuses].map(([status, count]) => `${count} × ${status}`).join(', ')}`);
    // Both outcomes happen, so the property says something about each.
    expect(statuses.get(200) ?? 0, `seed ${seed}`).to.be.above(0);
    expect(statuses.get(400) ?? 0, `seed ${seed}`).to.be.above(0);
  });
});
