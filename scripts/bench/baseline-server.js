'use strict';
/**
 * Child process: the bare baseline Tessera is compared with.
 *
 * A single Koa middleware over better-sqlite3, pg or mysql2 (baseline-database.js) that answers each scenario with
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
 * Each handler below computes the bindings from its request (the page's
 * offset, the search term, the id, the slug or the category the URL names,
 * the parent ids for a populate, …); the parent then captures the baseline's
 * statements for sample requests with different values and fails the run
 * unless the SQL and bindings equal Tessera's. A paged scenario's first page
 * has its own statements (no OFFSET), captured from Tessera apart (`<name>@1`),
 * and so does a deep page (`<name>@deep`, packages/database sql/deep-page.ts).
 *
 * Routing matches each scenario's URL template and takes the one number it
 * varies in (baseline-routes.js; the baseline does not parse `qs`: that work
 * is part of what Tessera is measured doing). The database is opened as
 * Tessera opens it (baseline-database.js).
 *
 * IPC protocol: the same as tessera-server.js ('ready', 'capture', 'idle', 'stop').
 */
const crypto = require('node:crypto');
const Koa = require('koa');
const { trackInFlight, idle } = require('./in-flight');
const { openBaselineDatabase } = require('./baseline-database');
const { entry, component, shape, withParentIds, starSteps, camel, DATETIME_COLUMNS } = require('./baseline-rows');
const { createRouter } = require('./baseline-routes');

const { database, salt, plans, routes, headers, deepOffset } = JSON.parse(process.env.BENCH_BASELINE);
const db = openBaselineDatabase(database, plans);
const router = createRouter(routes);

let recording; // an array while a capture request is in flight

/** Runs statement `index` of plan `name` (its text, or `sql` where the statement's text varies: MySQL id lists). */
function query(name, index, bindings, sql = plans[name][index].sql) {
  if (recording) recording.push({ sql, bindings: [...bindings] });
  return db.run(name, index, bindings, sql);
}

// ---------------------------------------------------------------------------
// Populate: one statement per step for all parents, bucketed by `__source`

/** How many statements of a list's plan read its page and total before the populates (listPage says which). */
function listStatements(name) {
  return /count\(\*\) over \(\)/i.test(plans[name][0].sql) ? 1 : 2;
}

/**
 * A step: `{ index, attribute, shape: 'one' | 'many' | 'component' | 'components', nested: [steps] }`, `index` counting
 * the plan's populate statements from 0.
 * Its statement is the one Tessera ran for the sample request, with the
 * parent-id list (in first-seen order, as Tessera binds it) replaced by this
 * request's parent ids (baseline-rows.js withParentIds).
 */
async function populate(name, parents, steps) {
  if (parents.length === 0) return;
  const ids = [...new Set(parents.map((parent) => parent.id))];
  for (const step of steps) {
    const index = listStatements(name) + step.index;
    const statement = withParentIds(plans[name][index], ids);
    const rows = await query(name, index, statement.bindings, statement.sql);
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

// ---------------------------------------------------------------------------
// Scenario handlers

const STAR_STEPS = plans['populate-star'] ? starSteps(plans['populate-star'].slice(listStatements('populate-star'))) : [];

const PAGE_SIZE = 25;

/**
 * Totals per scenario and filter value: Tessera caches each list total per filter until a write, so the baseline
 * counts each filter once too (the list's total once; a search term's, a category's, a slug's once each). Tessera
 * keeps a total with its read plan, and keeps at most 500 plans (one per filter; packages/core plan-cache.ts),
 * starting over when full: so does this cache, or with 990 search terms and 6,667 slugs the baseline would count
 * less often than Tessera.
 */
const totals = new Map();
const TOTALS_LIMIT = 500;

/**
 * One page of a list, as Tessera reads it. With no total held for the filter, Tessera reads the page with its total:
 * statement 0 of the scenario's plan, `count(*) over ()` first in each row — or, on SQLite when one index holds the
 * filtered columns, the page and a count apart (statements 0 and 1, in the order Tessera ran them: it starts both at
 * once). Once it holds the total it runs the page alone: statement 0 of the plan captured then (`<plan>~warm`). The
 * populate statements follow (listStatements(plan) on). Page 1 runs the first-page statements (`<name>@1`) when they
 * were captured (varied mode), and a page starting at `deepOffset` or later a deep page's (`<name>@deep`: Tessera may
 * read its ids first); fixed mode only ever asks for page 1, whose statements are the scenario's own. A first
 * page of nothing has a total of 0; the bench asks for no page past the end (which Tessera would count apart).
 */
async function listPage(name, { filter = [], filterKey = '', page = 1, steps = [] } = {}) {
  const deep = (page - 1) * PAGE_SIZE >= deepOffset && plans[`${name}@deep`];
  const plan = page === 1 && plans[`${name}@1`] ? `${name}@1` : deep ? `${name}@deep` : name;
  const totalKey = `${name}\u0000${filterKey}`;
  const pageBindings = page === 1 ? [...filter, PAGE_SIZE] : [...filter, PAGE_SIZE, (page - 1) * PAGE_SIZE];
  let total = totals.get(totalKey);
  let rows;
  if (total !== undefined) rows = await query(`${plan}~warm`, 0, pageBindings);
  else {
    if (listStatements(plan) === 1) {
      rows = await query(plan, 0, pageBindings);
      if (rows.length === 0 && page > 1) throw new Error(`${name}: page ${page} is past the end`);
      total = rows.length > 0 ? Number(rows[0].__total) : 0;
    } else {
      const countFirst = /^select count\(\*\)/i.test(plans[plan][0].sql);
      const count = async () => Number((await query(plan, countFirst ? 0 : 1, filter))[0].count);
      const read = () => query(plan, countFirst ? 1 : 0, pageBindings);
      [rows, total] = countFirst ? (await Promise.all([count(), read()])).reverse() : await Promise.all([read(), count()]);
    }
    if (totals.size >= TOTALS_LIMIT) totals.clear();
    totals.set(totalKey, total);
  }
  const data = rows.map(entry);
  await populate(plan, data, steps);
  return { data, meta: { pagination: { page, pageSize: PAGE_SIZE, pageCount: Math.ceil(total / PAGE_SIZE), total } } };
}

const CATEGORY_STEP = [{ index: 0, attribute: 'category', shape: 'one' }];

/** Each scenario's handler: `(ctx, value)`, `value` the number its request varies in (baseline-routes.js). */
const handlers = {
  list: (ctx, page) => listPage('list', { page }),
  // Tessera's binding: on SQLite a value with no letter is matched with instr() (the term itself), elsewhere LIKE.
  'list-search': (ctx, term) => listPage('list-search', { filter: [database.dialect === 'sqlite' ? String(term) : `%${term}%`], filterKey: term }),
  'deep-filter': (ctx, category) => listPage('deep-filter', { filter: [`Category ${category}`], filterKey: category }),
  'slug-populate': (ctx, n) =>
    listPage('slug-populate', {
      filter: [`article-${n}`],
      filterKey: n,
      steps: [...CATEGORY_STEP, { index: 1, attribute: 'tags', shape: 'many' }],
    }),
  'populate-star': (ctx, page) => listPage('populate-star', { page, steps: STAR_STEPS }),
  'populate-deep': (ctx, page) =>
    listPage('populate-deep', {
      page,
      steps: [{ index: 0, attribute: 'category', shape: 'one', nested: [{ index: 1, attribute: 'articles', shape: 'many' }] }],
    }),
  'populate-category': (ctx, page) => listPage('populate-category', { page, steps: CATEGORY_STEP }),
  'populate-category-fields': (ctx, page) => listPage('populate-category-fields', { page, steps: CATEGORY_STEP }),
  // The same rows as populate-category-fields, shaped as the GraphQL answer (the route read the page off the query).
  'graphql-list': async (ctx, page) => {
    const list = await listPage('graphql-list', { page, steps: CATEGORY_STEP });
    const data = list.data.map(({ id, attributes }) => ({
      id: String(id),
      attributes: {
        title: attributes.title,
        views: attributes.views,
        category: { data: attributes.category.data ? { attributes: { name: attributes.category.data.attributes.name } } : null },
      },
    }));
    return { data: { articles: { data, meta: { pagination: { total: list.meta.pagination.total } } } } };
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
        return run('create', index, bindings, plans.create[index].sql);
      };
      // The insert returns the entry's columns (RETURNING); where Tessera reads the row back instead, so does the baseline.
      // (Tessera's NOTIFY on PostgreSQL travels in its COMMIT's message, no statement of its own: the baseline sends none.)
      const inserted = (await inTransaction(1, insertBindings(data)))[0];
      const row = READ_BACK ? (await inTransaction(2, [inserted.id, 1]))[0] : inserted;
      // What Tessera runs after that in the transaction, the same each time (MySQL: its write-version bump and read).
      for (let index = READ_BACK ? 3 : 2; index < (plans.create?.length ?? 0); index += 1) await inTransaction(index, plans.create[index].bindings);
      return row;
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

/** Whether Tessera read the created row back (no RETURNING: MySQL), by the statement after the INSERT. */
const READ_BACK = /^select .* from [`"]articles[`"] as [`"]t0[`"] where [`"]t0[`"]\.[`"]id[`"] = /i.test(plans.create?.[2]?.sql ?? '');

/** Bindings for the captured INSERT: its column list, filled from the body plus timestamps, as each database takes them. */
const insertColumns = /insert into [`"]articles[`"] \(([^)]*)\)/.exec(plans.create?.[1]?.sql ?? '')?.[1].split(', ').map((c) => c.slice(1, -1)) ?? [];
function insertBindings(data) {
  const now = Date.now();
  const { dialect } = database;
  // MySQL takes `YYYY-MM-DD HH:MM:SS.mmm` in UTC (strict mode refuses ISO's T…Z).
  const stamp = dialect === 'postgres' ? new Date(now).toISOString() : dialect === 'mysql' ? new Date(now).toISOString().replace('T', ' ').replace('Z', '') : now;
  return insertColumns.map((column) => {
    if (DATETIME_COLUMNS.has(column)) return stamp;
    const value = data[camel(column)];
    if (typeof value === 'boolean') return dialect === 'sqlite' ? (value ? 1 : 0) : value;
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

const app = new Koa();
app.use(trackInFlight); // as in tessera-server.js: a capture waits for earlier load to drain
app.use((ctx) => handle(ctx));

/** The scenario a request belongs to and the number it varies in: `{ name, value }`, or undefined. */
async function routeOf(ctx) {
  if (ctx.method === 'GET') return router.get(ctx.url);
  if (ctx.method === 'POST' && ctx.path === '/api/articles') return { name: 'create' };
  if (ctx.method === 'POST' && ctx.path === '/graphql') {
    const { query: text } = JSON.parse(await readBody(ctx.req));
    return typeof text === 'string' ? router.graphql(text) : undefined;
  }
  return undefined;
}

/** Tessera's response headers for the scenario (security headers, Vary, X-Powered-By, content type), set as Tessera sets them. */
function setHeaders(ctx, scenario) {
  for (const [name, value] of headers[scenario] ?? []) ctx.res.setHeader(name, value);
}

async function handle(ctx) {
  let body;
  try {
    const route = await routeOf(ctx);
    if (route) {
      setHeaders(ctx, route.name);
      body = await handlers[route.name](ctx, route.value);
    } else body = notFound(ctx);
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
  // Tessera's capture empties its count cache (tessera-server.js), so the statements hold the count: so does this one.
  totals.clear();
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
