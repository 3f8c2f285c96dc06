'use strict';
/**
 * Child process: the bare baseline Tessera is compared with.
 *
 * A single Koa middleware over better-sqlite3 or pg (baseline-database.js) that answers each scenario with
 * the SAME SQL Tessera runs, the SAME JSON it returns and the same response
 * headers (Tessera's security headers, Vary, X-Powered-By: captured from its
 * answer, set in one step as Tessera's header middleware sets them), and
 * nothing else: no query-string parsing, no validation, no permissions, no
 * lifecycles. It is the floor cost of "run these statements, shape the rows,
 * send the answer".
 *
 * How it gets "the same SQL": the parent captures, per scenario, every
 * statement Tessera executes for one sample request (SQL text + bindings) and
 * hands them over in BENCH_BASELINE. They are prepared here once, verbatim.
 * Each handler below computes the bindings from its request (the page size,
 * the id in the URL, the parent ids for a populate, …); the parent then
 * captures the baseline's statements for the same sample request and fails
 * the run unless the SQL and bindings equal Tessera's.
 *
 * Routing is by exact URL per scenario (the baseline does not parse `qs`:
 * that work is part of what Tessera is measured doing). The database is
 * opened as Tessera opens it (baseline-database.js).
 *
 * IPC protocol: the same as tessera-server.js ('ready', 'capture', 'idle', 'stop').
 */
const crypto = require('node:crypto');
const Koa = require('koa');
const { trackInFlight, idle } = require('./in-flight');
const { openBaselineDatabase } = require('./baseline-database');

const { database, salt, plans, urls, headers } = JSON.parse(process.env.BENCH_BASELINE);
const db = openBaselineDatabase(database, plans);

let recording; // an array while a capture request is in flight

/** Runs statement `index` of scenario `name`; resolves with its rows. */
function query(name, index, bindings) {
  if (recording) recording.push({ sql: plans[name][index].sql, bindings: [...bindings] });
  return db.run(name, index, bindings);
}

// ---------------------------------------------------------------------------
// Rows → the Strapi v4 REST shape (what Tessera's row mapper + transformer do)

const DATETIME_COLUMNS = new Set(['created_at', 'updated_at', 'published_at']);
const BOOLEAN_COLUMNS = new Set(['featured']);
const JSON_COLUMNS = new Set(['meta', 'formats', 'provider_metadata']);
/** PostgreSQL's driver gives numeric columns as strings; Tessera answers numbers. */
const DECIMAL_COLUMNS = new Set(['rating', 'size']);
const INTERNAL_COLUMNS = new Set(['id', '__source', '__order']);
const camelCache = new Map();

function camel(column) {
  let name = camelCache.get(column);
  if (!name) {
    name = column.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());
    camelCache.set(column, name);
  }
  return name;
}

/** SQLite gives epoch ms, 0/1 and JSON text; PostgreSQL's driver Dates, booleans, parsed JSON and numeric strings. */
function decode(column, raw) {
  if (raw === null || raw === undefined) return null;
  if (DATETIME_COLUMNS.has(column)) return (raw instanceof Date ? raw : new Date(raw)).toISOString();
  if (BOOLEAN_COLUMNS.has(column)) return typeof raw === 'boolean' ? raw : raw !== 0;
  if (JSON_COLUMNS.has(column)) return typeof raw === 'string' ? JSON.parse(raw) : raw;
  if (DECIMAL_COLUMNS.has(column) && typeof raw === 'string') return Number(raw);
  return raw;
}

function attributesOf(row) {
  const attributes = {};
  for (const column in row) if (!INTERNAL_COLUMNS.has(column)) attributes[camel(column)] = decode(column, row[column]);
  return attributes;
}

/** `{ id, attributes }`, as REST answers an entry. */
function entry(row) {
  return { id: row.id, attributes: attributesOf(row) };
}

/** Components are inline: `{ id, ...attributes }`. */
function component(row) {
  return { id: row.id, ...attributesOf(row) };
}

// ---------------------------------------------------------------------------
// Populate: one statement per step for all parents, bucketed by `__source`

/**
 * A step: `{ index, attribute, shape: 'one' | 'many' | 'component' | 'components', nested: [steps] }`.
 * Its bindings are the ones Tessera used for the sample request, with the
 * parent-id list (one JSON array, in first-seen order, as Tessera binds it)
 * replaced by this request's parent ids.
 */
async function populate(name, parents, steps) {
  if (parents.length === 0) return;
  const ids = [...new Set(parents.map((parent) => parent.id))];
  for (const step of steps) {
    const bindings = plans[name][step.index].bindings.map((value) => idListLike(value, ids));
    const rows = await query(name, step.index, bindings);
    const buckets = new Map();
    const byId = new Map();
    for (const row of rows) {
      let value = byId.get(row.id);
      if (!value) {
        value = step.shape.startsWith('component') ? component(row) : entry(row);
        byId.set(row.id, value);
      }
      const bucket = buckets.get(row.__source);
      if (bucket) bucket.push(value);
      else buckets.set(row.__source, [value]);
    }
    if (step.nested) await populate(name, [...byId.values()], step.nested);
    for (const parent of parents) {
      const related = buckets.get(parent.id) ?? [];
      parent.attributes[step.attribute] = shape(step.shape, related);
    }
  }
}

/** The parent-id list binding in Tessera's form: a JSON array on SQLite, an array literal on PostgreSQL. */
function idListLike(value, ids) {
  if (typeof value !== 'string') return value;
  if (/^\[[\d,]*\]$/.test(value)) return JSON.stringify(ids);
  if (/^\{[\d,]*\}$/.test(value)) return `{${ids.join(',')}}`;
  return value;
}

/**
 * `populate=*` steps, read off the captured statements (which attributes
 * Tessera populates depends on the model and on what it supports): the
 * table a statement reads names the attribute, the article schema its shape.
 */
const ARTICLE = require('../../apps/example/src/api/article/content-types/article/schema.json').attributes;
function starSteps(queries) {
  return queries.slice(2).map(({ sql, bindings }, offset) => {
    const index = offset + 2;
    if (/from [`"]articles_components[`"]/.test(sql)) {
      const attribute = bindings[0];
      return { index, attribute, shape: ARTICLE[attribute].repeatable ? 'components' : 'component' };
    }
    if (/from [`"]files_related_morphs[`"]/.test(sql)) {
      const attribute = bindings[1];
      return { index, attribute, shape: ARTICLE[attribute].multiple ? 'many' : 'one' };
    }
    const table = /from [`"]articles_(\w+)_links[`"]/.exec(sql);
    if (!table) throw new Error(`populate=*: unexpected statement ${sql}`);
    const attribute = camel(table[1]);
    return { index, attribute, shape: /ToMany$/.test(ARTICLE[attribute].relation) ? 'many' : 'one' };
  });
}

function shape(kind, related) {
  if (kind === 'many') return { data: related };
  if (kind === 'one') return { data: related.length > 0 ? related[related.length - 1] : null };
  if (kind === 'components') return related;
  return related[0] ?? null; // a non-repeatable component
}

// ---------------------------------------------------------------------------
// Scenario handlers

const STAR_STEPS = plans['populate-star'] ? starSteps(plans['populate-star']) : [];

const PAGE_SIZE = 25;

/** Totals per scenario: Tessera caches list totals until a write, so the baseline counts once too. */
const totals = new Map();

/**
 * A list page: statements 0 and 1 are the page (filter bindings + limit) and
 * the count, in the order Tessera ran them — it starts both at once, so the
 * count runs before the populate statements, and either may reach the
 * database first.
 */
async function listPage(name, filterBindings, steps = []) {
  const countFirst = /^select count\(\*\)/i.test(plans[name][0].sql);
  const count = async () => {
    if (!totals.has(name)) totals.set(name, Number((await query(name, countFirst ? 0 : 1, filterBindings))[0].count));
  };
  // Tessera starts the page and the count together, in this order; so does the baseline.
  const page = () => query(name, countFirst ? 1 : 0, [...filterBindings, PAGE_SIZE]);
  const rows = countFirst ? (await Promise.all([count(), page()]))[1] : (await Promise.all([page(), count()]))[0];
  const data = rows.map(entry);
  const total = totals.get(name);
  await populate(name, data, steps);
  return { data, meta: { pagination: { page: 1, pageSize: PAGE_SIZE, pageCount: Math.ceil(total / PAGE_SIZE), total } } };
}

const handlers = {
  list: () => listPage('list', []),
  'list-search': () => listPage('list-search', ['%99%']),
  'deep-filter': () => listPage('deep-filter', ['Category 3']),
  'populate-star': () => listPage('populate-star', [], STAR_STEPS),
  'populate-deep': () =>
    listPage('populate-deep', [], [
      { index: 2, attribute: 'category', shape: 'one', nested: [{ index: 3, attribute: 'articles', shape: 'many' }] },
    ]),
  'populate-category': () => listPage('populate-category', [], [{ index: 2, attribute: 'category', shape: 'one' }]),
  'populate-category-fields': () => listPage('populate-category-fields', [], [{ index: 2, attribute: 'category', shape: 'one' }]),
  // The same rows as populate-category, shaped as the GraphQL answer (the query text is not parsed, as URLs are not).
  'graphql-list': async (ctx) => {
    await readBody(ctx.req);
    const page = await listPage('graphql-list', [], [{ index: 2, attribute: 'category', shape: 'one' }]);
    const data = page.data.map(({ id, attributes }) => ({
      id: String(id),
      attributes: {
        title: attributes.title,
        views: attributes.views,
        category: { data: attributes.category.data ? { attributes: { name: attributes.category.data.attributes.name } } : null },
      },
    }));
    return { data: { articles: { data, meta: { pagination: { total: page.meta.pagination.total } } } } };
  },
  'get-one': async (ctx, id) => {
    const row = (await query('get-one', 0, [id, 1]))[0];
    if (!row) return notFound(ctx);
    return { data: entry(row), meta: {} };
  },
  create: async (ctx) => {
    if (!(await fullAccess(ctx.get('authorization')))) {
      ctx.status = 401;
      return { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } };
    }
    const { data } = JSON.parse(await readBody(ctx.req));
    const created = await db.transaction(async (run) => {
      const inTransaction = (index, bindings) => {
        if (recording) recording.push({ sql: plans.create[index].sql, bindings: [...bindings] });
        return run('create', index, bindings);
      };
      // The insert returns the entry's columns (RETURNING); where Tessera reads the row back instead, so does the baseline.
      // (Tessera's NOTIFY on PostgreSQL travels in its COMMIT's message, no statement of its own: the baseline sends none.)
      const inserted = (await inTransaction(1, insertBindings(data)))[0];
      return plans.create[2] ? (await inTransaction(2, [inserted.id, 1]))[0] : inserted;
    });
    return { data: entry(created), meta: {} };
  },
};

/** Token lookup with Tessera's statement: HMAC-SHA512 of the key with the app salt. */
async function fullAccess(header) {
  const match = /^Bearer (.+)$/.exec(header || '');
  if (!match) return false;
  const hash = crypto.createHmac('sha512', salt).update(match[1]).digest('hex');
  const token = (await query('create', 0, [hash, 1]))[0];
  return Boolean(token) && token.type === 'full-access' && (token.expires_at === null || token.expires_at > Date.now());
}

/** Bindings for the captured INSERT: its column list, filled from the body plus timestamps. */
const insertColumns = /insert into [`"]articles[`"] \(([^)]*)\)/.exec(plans.create?.[1]?.sql ?? '')?.[1].split(', ').map((c) => c.slice(1, -1)) ?? [];
function insertBindings(data) {
  const now = Date.now();
  const postgres = database.dialect === 'postgres';
  return insertColumns.map((column) => {
    if (DATETIME_COLUMNS.has(column)) return postgres ? new Date(now).toISOString() : now;
    const value = data[camel(column)];
    if (typeof value === 'boolean') return postgres ? value : value ? 1 : 0;
    return value ?? null;
  });
}

function notFound(ctx) {
  ctx.status = 404;
  return { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };
}

async function readBody(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

// ---------------------------------------------------------------------------
// Server

const GET_ONE = /^\/api\/articles\/(\d+)$/;

const app = new Koa();
app.use(trackInFlight); // as in tessera-server.js: a capture waits for earlier load to drain
app.use((ctx) => handle(ctx));

/** The scenario a request belongs to, by exact URL or shape. */
function scenarioOf(ctx) {
  const fixed = fixedScenarios.get(`${ctx.method} ${ctx.url}`);
  if (fixed) return fixed;
  if (ctx.method === 'GET' && GET_ONE.test(ctx.path)) return 'get-one';
  if (ctx.method === 'POST' && ctx.path === '/api/articles') return 'create';
  if (ctx.method === 'POST' && ctx.path === '/graphql') return 'graphql-list';
  return undefined;
}
const fixedScenarios = new Map(Object.entries(urls).map(([name, url]) => [`GET ${url}`, name]));

/** Tessera's response headers for the scenario (security headers, Vary, X-Powered-By, content type), set as Tessera sets them. */
function setHeaders(ctx, scenario) {
  for (const [name, value] of headers[scenario] ?? []) ctx.res.setHeader(name, value);
}

async function handle(ctx) {
  const scenario = scenarioOf(ctx);
  let body;
  try {
    if (scenario) setHeaders(ctx, scenario);
    if (scenario === 'get-one') body = await handlers['get-one'](ctx, Number(GET_ONE.exec(ctx.path)[1]));
    else if (scenario) body = await handlers[scenario](ctx);
    else body = notFound(ctx);
  } catch (error) {
    // Shown by the parent's verification (a scenario whose SQL cannot run here must fail loudly).
    ctx.status = 500;
    body = { error: String(error.message) };
  }
  ctx.body = body;
}

const server = app.listen(0, '127.0.0.1', () => {
  const url = `http://127.0.0.1:${server.address().port}`;

  const stop = () => {
    server.close();
    server.closeAllConnections?.();
    void db.close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', () => undefined); // the parent decides when we stop
  process.on('disconnect', stop);
  process.on('message', async (message) => {
    if (message.type === 'stop') return stop();
    if (message.type === 'idle') return idle().then(() => process.send({ type: 'idle', id: message.id }));
    if (message.type === 'capture') process.send({ type: 'captured', id: message.id, ...(await capture(url, message.request)) });
  });
  process.send({ type: 'ready', url });
});

/** Headers that vary per response or connection (as tessera-server.js leaves them out of a capture). */
const PER_RESPONSE = new Set(['date', 'content-length', 'connection', 'keep-alive', 'transfer-encoding']);

async function capture(url, request) {
  await idle();
  recording = [];
  try {
    const response = await fetch(`${url}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    return { status: response.status, headers: [...response.headers].filter(([name]) => !PER_RESPONSE.has(name)), body: await response.text(), queries: recording };
  } catch (error) {
    return { error: String(error && error.stack) };
  } finally {
    recording = undefined;
  }
}
