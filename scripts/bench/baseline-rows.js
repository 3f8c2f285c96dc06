'use strict';
/**
 * Rows → the Strapi v4 REST shape, as Tessera's row mapper and transformer make it, for the bare baseline
 * (baseline-server.js): decoding each database's column values, `{ id, attributes }` entries, inline components,
 * the shape of a populated relation; and the steps of a `populate=*` read off the statements Tessera ran.
 */
const DATETIME_COLUMNS = new Set(['created_at', 'updated_at', 'published_at']);
const BOOLEAN_COLUMNS = new Set(['featured']);
const JSON_COLUMNS = new Set(['meta', 'formats', 'provider_metadata']);
/** PostgreSQL's and MySQL's drivers give numeric columns as strings; Tessera answers numbers. */
const DECIMAL_COLUMNS = new Set(['rating', 'size']);
const INTERNAL_COLUMNS = new Set(['id', '__source', '__order', '__total']);
const camelCache = new Map();

function camel(column) {
  let name = camelCache.get(column);
  if (!name) {
    name = column.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());
    camelCache.set(column, name);
  }
  return name;
}

/**
 * SQLite gives epoch ms, 0/1 and JSON text; PostgreSQL's driver Dates, booleans, parsed JSON and numeric strings;
 * MySQL's (configured as Tessera configures it) Dates, booleans, JSON text and decimal strings.
 */
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

/** A populated attribute's value from its related entries (in order). */
function shape(kind, related) {
  if (kind === 'many') return { data: related };
  if (kind === 'one') return { data: related.length > 0 ? related[related.length - 1] : null };
  if (kind === 'components') return related;
  return related[0] ?? null; // a non-repeatable component
}

/**
 * A populate statement for this request's parent ids, from the one Tessera ran for the sample: its id list is one
 * binding on SQLite (a JSON array) and PostgreSQL (an array literal), in first-seen order as Tessera binds it; on
 * MySQL it is `in (?, …)`, one placeholder per id, the list padded to the next power of two by repeating its last id
 * (as Tessera pads it: packages/database sql/reader.ts, mysqlLevelStatement).
 */
function withParentIds({ sql, bindings }, ids) {
  const match = / in \((\?(?:, \?)*)\)/.exec(sql);
  if (match) {
    const start = (sql.slice(0, match.index).match(/\?/g) ?? []).length;
    const count = (match[1].match(/\?/g) ?? []).length;
    const size = 2 ** Math.ceil(Math.log2(ids.length));
    const padded = [...ids, ...Array(size - ids.length).fill(ids[ids.length - 1])];
    return {
      sql: `${sql.slice(0, match.index)} in (${padded.map(() => '?').join(', ')})${sql.slice(match.index + match[0].length)}`,
      bindings: [...bindings.slice(0, start), ...padded, ...bindings.slice(start + count)],
    };
  }
  return {
    sql,
    bindings: bindings.map((value) => {
      if (typeof value !== 'string') return value;
      if (/^\[[\d,]*\]$/.test(value)) return JSON.stringify(ids);
      if (/^\{[\d,]*\}$/.test(value)) return `{${ids.join(',')}}`;
      return value;
    }),
  };
}

/**
 * `populate=*` steps, read off the captured statements (which attributes Tessera populates depends on the model and
 * on what it supports): the table a statement reads names the attribute, the article schema its shape.
 */
const ARTICLE = require('../../apps/example/src/api/article/content-types/article/schema.json').attributes;
/** `queries`: the populate statements of the plan (after its page and total). */
function starSteps(queries) {
  return queries.map(({ sql, bindings }, index) => {
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

module.exports = { camel, entry, component, shape, withParentIds, starSteps, DATETIME_COLUMNS };
