'use strict';
/**
 * The measured scenarios: what is requested, and how the load varies.
 *
 * Two modes (BENCH_MODE):
 * - `varied` (the default, the headline): every request differs, as real traffic does — a random page of the
 *   published articles, a random search term, a random published id, a random category, a random slug — drawn from
 *   a seeded sequence (BENCH_SEED, default 42; mulberry32), so two runs send the same requests in the same order,
 *   and Tessera and the baseline get the same sequence.
 * - `fixed`: one URL per scenario, every request identical (get one walks the published ids, create sends new
 *   slugs): what sharing identical reads in flight and caching totals save when every client asks the same thing.
 *
 * A read scenario's varying part is one number, written into its `template` where `{}` stands (in a GraphQL
 * query too); `fixedPath`/`fixedValue` are its fixed-mode request and the number that request stands for. The
 * baseline matches a URL against the same template (baseline-routes.js) and binds the number into the SQL
 * captured from Tessera. Each scenario has three sample values for the verification (verify.js): the first's
 * SQL is captured, a second, different one catches a baseline that ignores the varying value, and a paged
 * scenario's page 1 (whose SQL has no OFFSET: captured apart) is checked too.
 *
 * `read: true` marks the scenarios the baseline aim (report.js) applies to. Create runs last, since it adds published
 * articles that would change the other scenarios' totals.
 */
const { publishedIds } = require('./seed');

const PAGE_SIZE = 25;
const CATEGORIES = 10;

/** The published articles requests pick from: the seed's (and the Strapi peer's) drafts every third article. */
function population(articles) {
  const published = publishedIds(articles);
  return { published, pages: Math.ceil(published.length / PAGE_SIZE) };
}

const MODE = process.env.BENCH_MODE ?? 'varied';
if (MODE !== 'varied' && MODE !== 'fixed') throw new Error(`BENCH_MODE must be varied or fixed, not "${MODE}"`);
const SEED = Number(process.env.BENCH_SEED ?? 42);
if (!Number.isSafeInteger(SEED)) throw new Error(`BENCH_SEED must be an integer, not "${process.env.BENCH_SEED}"`);

/** mulberry32: a small, fast, seeded PRNG in [0, 1); the same seed gives the same sequence on every run. */
function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** One stream per scenario (FNV-1a of its name mixed with the seed), so scenarios do not depend on each other's draws. */
function streamFor(name) {
  let hash = 0x811c9dc5 ^ SEED;
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return mulberry32(hash);
}

const below = (rand, n) => Math.floor(rand() * n);

/** How each kind of varying value is drawn: always a whole number, which is what the baseline's matcher accepts. */
const DRAW = {
  page: (rand, { pages }) => 1 + below(rand, pages),
  term: (rand) => 10 + below(rand, 990),
  id: (rand, { published }) => published[below(rand, published.length)],
  category: (rand) => 1 + below(rand, CATEGORIES),
};

function getRequest(path) {
  return { method: 'GET', path, headers: {} };
}

/** Fixed mode's get one: cycles through published article ids (drafts would be 404 under `live`). */
function getOneWalk({ published }) {
  let cursor = 0;
  return () => {
    // A stride co-prime with the list length walks every id without a pattern the cache would like.
    cursor = (cursor + 7919) % published.length;
    return getRequest(`/api/articles/${published[cursor]}`);
  };
}

/** Every created article needs its own slug (unique column). */
function createRequests(token, prefix) {
  let counter = 0;
  return () => {
    counter += 1;
    return {
      method: 'POST',
      path: '/api/articles',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: {
        data: {
          title: `Bench ${prefix} ${counter}`,
          slug: `bench-${prefix}-${process.pid}-${counter}`,
          summary: 'Created by the benchmark.',
          views: counter,
          featured: false,
        },
      },
    };
  };
}

/**
 * The GraphQL list: 25 articles with title, views and category name (and the total), the same data as the REST
 * `populate-category-fields` scenario. Varied mode asks for a page; fixed mode for the first, without naming it.
 */
const GRAPHQL_FIELDS = 'data { id attributes { title views category { data { attributes { name } } } } } meta { pagination { total } }';
const GRAPHQL_FIXED = `{ articles(pagination: { pageSize: 25 }) { ${GRAPHQL_FIELDS} } }`;
const GRAPHQL_TEMPLATE = `{ articles(pagination: { page: {}, pageSize: 25 }) { ${GRAPHQL_FIELDS} } }`;

function graphqlRequest(query) {
  return { method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: { query } };
}

/**
 * Every scenario, in both modes; `token` is the full-access token for create.
 * Read scenarios: `template` (varied), `fixedPath` + `fixedValue` (fixed), `vary` (the kind of value),
 * `samples` (the values verified: the first is the one whose SQL is captured).
 */
function definitions(token) {
  const paged = (name, title, base, extra = {}) => ({
    name,
    title,
    read: true,
    vary: 'page',
    fixedPath: base,
    fixedValue: 1,
    template: base && `${base}&pagination[page]={}`,
    samples: [7, 213, 1],
    ...extra,
  });
  return [
    paged('list', 'list (pageSize 25, with count)', '/api/articles?pagination[pageSize]=25'),
    {
      name: 'list-search',
      title: 'list $containsi + sort',
      read: true,
      vary: 'term',
      fixedPath: '/api/articles?filters[title][$containsi]=99&sort=views:desc',
      fixedValue: 99,
      template: '/api/articles?filters[title][$containsi]={}&sort=views:desc',
      samples: [99, 42],
    },
    { name: 'get-one', title: 'get one', read: true, vary: 'id', template: '/api/articles/{}', fixedValue: undefined, samples: [1, 5002] },
    paged('populate-star', 'list populate=*', '/api/articles?populate=*'),
    // Each category has ~670 published articles: the nested filter keeps the answer at a realistic size.
    paged(
      'populate-deep',
      'list two-level populate',
      '/api/articles?populate[category][fields][0]=name&populate[category][populate][articles][fields][0]=title' +
        '&populate[category][populate][articles][filters][id][$lte]=60',
    ),
    paged('populate-category', 'list, populate category name', '/api/articles?populate[category][fields][0]=name'),
    // The REST request the GraphQL list must keep up with: the same fields, nothing more.
    paged(
      'populate-category-fields',
      'list, title + views + category name',
      '/api/articles?pagination[pageSize]=25&fields[0]=title&fields[1]=views&populate[category][fields][0]=name',
    ),
    paged('graphql-list', 'GraphQL list (title, views, category name)', undefined, {
      graphql: true,
      fixedPath: undefined,
      template: GRAPHQL_TEMPLATE,
    }),
    {
      name: 'deep-filter',
      title: 'deep filter (category.name)',
      read: true,
      vary: 'category',
      fixedPath: '/api/articles?filters[category][name][$eq]=Category%203',
      fixedValue: 3,
      template: '/api/articles?filters[category][name][$eq]=Category%20{}',
      samples: [3, 8],
    },
    {
      name: 'slug-populate',
      title: 'slug + category and tags (populate *)',
      read: true,
      vary: 'id',
      fixedPath: '/api/articles?filters[slug][$eq]=article-1&populate[category]=*&populate[tags]=*',
      fixedValue: 1,
      template: '/api/articles?filters[slug][$eq]=article-{}&populate[category]=*&populate[tags]=*',
      samples: [1, 4097],
    },
    // The baseline and Tessera each get their own slug prefix, so their inserts never collide.
    { name: 'create', title: 'create', read: false, nextFor: (server) => createRequests(token, server) },
  ];
}

/**
 * The scenarios as this run measures them: `mode` BENCH_MODE unless given; `articles` how many the database holds
 * (10,000, as seeded: the samples are ids and pages of that many; versus-strapi.sh may seed fewer for a quick check).
 */
function scenarios(token, { mode = MODE, articles = 10000 } = {}) {
  const drawn = population(articles);
  return definitions(token).map((scenario) => ({ ...scenario, mode, population: drawn }));
}

/** The request of a read scenario for one value (varied), or its fixed request (`value` undefined, fixed mode). */
function requestOf(scenario, value) {
  if (scenario.graphql) return graphqlRequest(value === undefined ? GRAPHQL_FIXED : GRAPHQL_TEMPLATE.replace('{}', String(value)));
  return getRequest(value === undefined ? scenario.fixedPath : scenario.template.replace('{}', String(value)));
}

/** The request generator of `scenario` for `server` ('tessera' | 'baseline'): the same sequence for both in a read. */
function requestsFor(scenario, server) {
  if (!scenario.read) return scenario.nextFor(server);
  if (scenario.mode === 'fixed') {
    if (scenario.name === 'get-one') return getOneWalk(scenario.population);
    const request = requestOf(scenario, undefined);
    return () => request;
  }
  const rand = streamFor(scenario.name);
  return () => requestOf(scenario, DRAW[scenario.vary](rand, scenario.population));
}

/**
 * The requests used to capture SQL and compare answers: `[{ tessera, baseline, value }]`. In fixed mode the one
 * fixed request (get one, which has none, its sample ids); in varied mode every sample value. Create: two new
 * articles (each server its own prefix).
 */
function samplesFor(scenario) {
  if (!scenario.read) {
    return ['sample', 'sample2'].map((prefix) => ({
      tessera: scenario.nextFor(`tessera-${prefix}`)(),
      baseline: scenario.nextFor(`baseline-${prefix}`)(),
    }));
  }
  const values = scenario.mode === 'fixed' && scenario.fixedValue !== undefined ? [undefined] : scenario.samples;
  return values.map((value) => {
    const request = requestOf(scenario, value);
    return { tessera: request, baseline: request, value: value ?? scenario.fixedValue };
  });
}

/**
 * What the baseline needs to route a scenario's requests (baseline-routes.js): the template and the fixed request
 * of its URL, or of its GraphQL query text.
 */
function routeOf(scenario) {
  return {
    template: scenario.template,
    graphql: Boolean(scenario.graphql),
    fixed: scenario.graphql ? GRAPHQL_FIXED : scenario.fixedPath,
    fixedValue: scenario.fixedValue,
  };
}

module.exports = { scenarios, requestsFor, requestOf, samplesFor, routeOf, mulberry32, MODE, SEED, PAGE_SIZE };
