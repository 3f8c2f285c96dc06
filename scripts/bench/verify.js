'use strict';
/**
 * Before anything is measured, both servers must answer each of the scenario's
 * sample requests with status 200, the same body and the same response headers
 * (all but date, length and connection ones), having run the same SQL with the
 * same bindings. Any difference throws: a fast baseline that answers
 * something else would make the ratio meaningless. The samples of a varied
 * scenario differ in the value it varies (index.js checks each): the SQL is
 * captured from the first, so a baseline that replayed the first's bindings,
 * or answered the same page whatever the URL, fails on the second.
 *
 * Values that legitimately differ between the two answers of a create (the
 * new id, the timestamps, the title/slug each server was sent) are replaced
 * by placeholders before comparing.
 */
const assert = require('node:assert');

const NOW_LIKE = (value) => typeof value === 'number' && value > 1e12; // epoch ms bindings
const ISO_LIKE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MYSQL_DATETIME_LIKE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/; // MySQL datetime bindings

/** Placeholders for the values a create may differ in. */
function normalizer(sample, createdId) {
  const sent = new Map();
  for (const [key, value] of Object.entries(sample.body?.data ?? {})) if (typeof value === 'string') sent.set(value, `<${key}>`);
  const walk = (value) => {
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      const out = {};
      for (const [key, inner] of Object.entries(value)) out[key] = key === 'id' && inner === createdId ? '<id>' : walk(inner);
      return out;
    }
    if (sent.has(value)) return sent.get(value);
    if (NOW_LIKE(value) || (typeof value === 'string' && (ISO_LIKE.test(value) || MYSQL_DATETIME_LIKE.test(value)))) return '<now>';
    if (value === createdId) return '<id>';
    return value;
  };
  return walk;
}

/**
 * Compares two captures `{ status, body, queries }` of `scenario`.
 * `samples` holds the request each server was sent; `value` the number it varies in (for messages).
 */
function verifySame(scenario, tessera, baseline, samples, value) {
  const where = `scenario "${scenario.name}"${value === undefined ? '' : ` (sample ${value})`}`;
  for (const [server, result] of [['tessera', tessera], ['baseline', baseline]]) {
    if (result.error) throw new Error(`${where}: ${server} failed: ${result.error}`);
    if (result.status !== 200) throw new Error(`${where}: ${server} answered ${result.status}: ${result.body.slice(0, 500)}`);
  }
  const tesseraBody = JSON.parse(tessera.body);
  const baselineBody = JSON.parse(baseline.body);
  const writes = !scenario.read;
  const normalizeT = writes ? normalizer(samples.tessera, tesseraBody.data?.id) : (v) => v;
  const normalizeB = writes ? normalizer(samples.baseline, baselineBody.data?.id) : (v) => v;

  try {
    assert.deepStrictEqual(normalizeB(baselineBody), normalizeT(tesseraBody));
  } catch (error) {
    throw new Error(`${where}: the baseline's body differs from Tessera's\n${error.message.slice(0, 3000)}`);
  }
  try {
    assert.deepStrictEqual(normalizeB(baseline.queries), normalizeT(tessera.queries));
  } catch (error) {
    throw new Error(`${where}: the baseline's SQL or bindings differ from Tessera's\n${error.message.slice(0, 3000)}`);
  }
  try {
    // The same response headers too (all but date, length and connection ones): a server that dropped a security
    // header would do less work than the answer asks for.
    assert.deepStrictEqual(new Map(baseline.headers), new Map(tessera.headers));
  } catch (error) {
    throw new Error(`${where}: the baseline's response headers differ from Tessera's\n${error.message.slice(0, 3000)}`);
  }
  // Same key order too means byte-identical JSON (for reads); report it, do not require it.
  return { identicalBytes: !writes && tessera.body === baseline.body, bytes: tessera.body.length };
}

module.exports = { verifySame };
