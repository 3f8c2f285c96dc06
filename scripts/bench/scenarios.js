'use strict';
/**
 * The measured scenarios: what is requested, and how the load varies.
 *
 * Each scenario has a sample request (used once to capture Tessera's SQL and
 * to check both servers answer the same body) and a request generator that
 * autocannon calls per request to vary ids or bodies. `read: true` marks the
 * scenarios the issue's ≥ 0.6 × baseline aim applies to. Create runs last, since
 * it adds published articles that would change the other scenarios' totals.
 *
 * The baseline implements each scenario by name (baseline-server.js) with
 * the SQL captured from Tessera.
 */
const { publishedIds } = require('./seed');

const PUBLISHED = publishedIds();

function getRequest(path) {
  return { method: 'GET', path, headers: {} };
}

/** Cycles through published article ids (drafts would be 404 under `live`). */
function getOneRequests() {
  let cursor = 0;
  return () => {
    // A stride co-prime with the list length walks every id without a pattern the cache would like.
    cursor = (cursor + 7919) % PUBLISHED.length;
    return getRequest(`/api/articles/${PUBLISHED[cursor]}`);
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
 * The GraphQL list: 25 articles with title, views and category name (and the
 * total), the same data as the REST `populate-category` scenario.
 */
const GRAPHQL_LIST =
  '{ articles(pagination: { pageSize: 25 }) { data { id attributes { title views category { data { attributes { name } } } } } meta { pagination { total } } } }';

function graphqlRequest() {
  return { method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: { query: GRAPHQL_LIST } };
}

/**
 * Scenario list; `token` is the full-access token for create. A scenario has
 * either a fixed `path` (GET) or `nextFor(server)`, a fresh generator of
 * varying requests per server (plus an optional fixed `sample`).
 */
function scenarios(token) {
  return [
    { name: 'list', title: 'list (pageSize 25, with count)', read: true, path: '/api/articles?pagination[pageSize]=25' },
    {
      name: 'list-search',
      title: 'list $containsi + sort',
      read: true,
      path: '/api/articles?filters[title][$containsi]=99&sort=views:desc',
    },
    { name: 'get-one', title: 'get one', read: true, nextFor: () => getOneRequests(), sample: getRequest('/api/articles/1') },
    { name: 'populate-star', title: 'list populate=*', read: true, path: '/api/articles?populate=*' },
    {
      name: 'populate-deep',
      title: 'list two-level populate',
      read: true,
      // Each category has ~670 published articles: the nested filter keeps the answer at a realistic size.
      path:
        '/api/articles?populate[category][fields][0]=name&populate[category][populate][articles][fields][0]=title' +
        '&populate[category][populate][articles][filters][id][$lte]=60',
    },
    {
      name: 'populate-category',
      title: 'list, populate category name',
      read: true,
      path: '/api/articles?populate[category][fields][0]=name',
    },
    {
      // The REST request the GraphQL list must keep up with: the same fields, nothing more.
      name: 'populate-category-fields',
      title: 'list, title + views + category name',
      read: true,
      path: '/api/articles?pagination[pageSize]=25&fields[0]=title&fields[1]=views&populate[category][fields][0]=name',
    },
    { name: 'graphql-list', title: 'GraphQL list (title, views, category name)', read: true, nextFor: () => graphqlRequest, sample: graphqlRequest() },
    {
      name: 'deep-filter',
      title: 'deep filter (category.name)',
      read: true,
      path: '/api/articles?filters[category][name][$eq]=Category%203',
    },
    // The baseline and Tessera each get their own slug prefix, so their inserts never collide.
    { name: 'create', title: 'create', read: false, nextFor: (server) => createRequests(token, server) },
  ];
}

/** The request generator of `scenario` for `server` ('tessera' | 'baseline'). */
function requestsFor(scenario, server) {
  if (scenario.path) return () => getRequest(scenario.path);
  return scenario.nextFor(server);
}

/** The request used to capture SQL and compare bodies. */
function sampleFor(scenario, server) {
  // Its own prefix: a create sample must not reuse a slug the measured load will send.
  return scenario.sample ?? requestsFor(scenario, `${server}-sample`)();
}

module.exports = { scenarios, requestsFor, sampleFor };
