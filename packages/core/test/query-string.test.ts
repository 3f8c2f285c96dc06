/**
 * What a URL means, pinned: each query string in query-string.cases.json with
 * the object Tessera parses it to (or the 400 it gets). qs is an exact
 * version and every option that changes a parse is spelled out in
 * src/http/query-string.ts, so a dependency update that changes any of these
 * meanings fails here instead of changing what clients' requests do. The
 * cases' notes record where Strapi's own parse differs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parseQuery } from '@tessera/core';

interface Case {
  url: string;
  parsed?: unknown;
  error?: string;
  note?: string;
}

const table = JSON.parse(fs.readFileSync(path.join(__dirname, 'query-string.cases.json'), 'utf8')) as { cases: Case[] };

/** Objects without a prototype (plainObjects) compare as plain ones. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('query strings: what a URL means', () => {
  it('parses with the qs version package.json pins exactly', () => {
    const pinned = (JSON.parse(fs.readFileSync(path.join(__dirname, '../package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies.qs;
    expect(pinned).to.match(/^\d+\.\d+\.\d+$/);
    expect((JSON.parse(fs.readFileSync(require.resolve('qs/package.json'), 'utf8')) as { version: string }).version).to.equal(pinned);
  });

  for (const { url, parsed, error, note } of table.cases) {
    it(`${url} → ${error === undefined ? JSON.stringify(parsed) : `400 (${error})`}${note ? `  [${note}]` : ''}`, () => {
      if (error !== undefined) {
        expect(() => parseQuery(url)).to.throw(`Invalid query string: ${error}`);
      } else {
        expect(plain(parseQuery(url))).to.deep.equal(parsed);
      }
    });
  }

  it('refuses more than 1,000 parameters, 100 list items or 16 KB', () => {
    const params = (count: number, key: (index: number) => string) => Array.from({ length: count }, (_, index) => `${key(index)}=x`).join('&');
    expect(Object.keys(parseQuery(params(1000, (index) => `k${index}`)))).to.have.length(1000);
    expect(() => parseQuery(params(1001, (index) => `k${index}`))).to.throw('Invalid query string: Parameter limit exceeded');
    expect(parseQuery(params(100, () => 'a[]')).a).to.have.length(100);
    expect(() => parseQuery(params(101, () => 'a[]'))).to.throw('Invalid query string: Array limit exceeded');
    expect(() => parseQuery(params(101, () => 'a'))).to.throw('Invalid query string: Array limit exceeded');
    expect(() => parseQuery(`a=${'x'.repeat(16 * 1024)}`)).to.throw('Query string too long (limit 16384 characters)');
  });

  it('a query string parsed again (kept from a recent parse) means the same, as its own objects a change cannot leak from', () => {
    /** Every object level without a prototype, as qs's plainObjects makes them. */
    const prototypes = (value: unknown): unknown[] => {
      if (typeof value !== 'object' || value === null) return [];
      if (Array.isArray(value)) return value.flatMap(prototypes);
      return [Object.getPrototypeOf(value), ...Object.values(value).flatMap(prototypes)];
    };
    /** Changes every object and list in place, as a route middleware rewriting `ctx.query` may. */
    const scribble = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) return;
      if (Array.isArray(value)) {
        value.forEach(scribble);
        value.push('scribbled');
        return;
      }
      for (const key of Object.keys(value)) scribble((value as Record<string, unknown>)[key]);
      (value as Record<string, unknown>).scribbled = true;
    };
    const parsedCases = table.cases.filter((entry) => entry.error === undefined);
    expect(parsedCases.length).to.be.greaterThan(10);
    for (const { url, parsed } of parsedCases) {
      const first = parseQuery(url);
      scribble(first);
      for (let again = 0; again < 2; again++) {
        const next = parseQuery(url);
        expect(plain(next), url).to.deep.equal(parsed);
        expect(prototypes(next).every((prototype) => prototype === null), url).to.equal(true);
        scribble(next);
      }
    }
  });
});
