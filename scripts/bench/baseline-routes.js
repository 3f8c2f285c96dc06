'use strict';
/**
 * The baseline's router: which scenario a request belongs to, and the one number it varies in (a page, a search
 * term, an id, a category, a slug's number).
 *
 * Minimal on purpose: the baseline does not parse query strings (that work is part of what Tessera is measured
 * doing). Each scenario's route is its template from scenarios.js, `{}` standing for the number: a URL matches when
 * it starts with the template's text before `{}`, ends with the text after it, and holds only digits in between.
 * A scenario's fixed-mode request matches exactly and stands for its fixed value. The GraphQL scenario matches its
 * query text the same way (the body's `query`).
 */

/** A matcher `(text) => number | undefined` for one template and fixed request. */
function matcherOf({ template, fixed, fixedValue }) {
  const [prefix, suffix] = template ? template.split('{}') : [];
  return (text) => {
    if (fixed !== undefined && text === fixed) return fixedValue;
    if (prefix === undefined || text.length <= prefix.length + suffix.length) return undefined;
    if (!text.startsWith(prefix) || !text.endsWith(suffix)) return undefined;
    const digits = text.slice(prefix.length, text.length - suffix.length);
    return /^\d{1,9}$/.test(digits) ? Number(digits) : undefined;
  };
}

/**
 * `routes`: `{ [scenario]: { template, graphql, fixed, fixedValue } }` (scenarios.js routeOf). Returns
 * `{ get(url), graphql(query) }`, each `{ name, value }` or undefined.
 */
function createRouter(routes) {
  const get = [];
  const graphql = [];
  for (const [name, route] of Object.entries(routes)) (route.graphql ? graphql : get).push({ name, match: matcherOf(route) });
  const find = (list, text) => {
    for (const { name, match } of list) {
      const value = match(text);
      if (value !== undefined) return { name, value };
    }
    return undefined;
  };
  return { get: (url) => find(get, url), graphql: (query) => find(graphql, query) };
}

module.exports = { createRouter, matcherOf };
