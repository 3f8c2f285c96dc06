/**
 * The bench's varied mode, without measuring anything: the request sequence is the same on every run and for
 * both servers, the bare baseline's router finds every request's scenario and the number it varies in (so the
 * baseline can bind it into the captured SQL), and verify.js refuses a baseline that answered a sample with the
 * first sample's bindings. (`npm run bench` itself checks both servers' answers on real databases before it
 * measures; this keeps the pieces it relies on from drifting apart.)
 */
import { expect } from 'chai';

interface BenchRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: { query?: string };
}
interface Scenario {
  name: string;
  read: boolean;
  graphql?: boolean;
  vary?: string;
  mode: 'varied' | 'fixed';
}
interface Route {
  template?: string;
  graphql: boolean;
  fixed?: string;
  fixedValue?: number;
}
interface Sample {
  tessera: BenchRequest;
  baseline: BenchRequest;
  value?: number;
}
interface Capture {
  status: number;
  body: string;
  headers: Array<[string, string]>;
  queries: Array<{ sql: string; bindings: unknown[] }>;
}
interface ScenariosModule {
  scenarios(token: string, options?: { mode?: 'varied' | 'fixed'; articles?: number }): Scenario[];
  requestsFor(scenario: Scenario, server: string): () => BenchRequest;
  samplesFor(scenario: Scenario): Sample[];
  routeOf(scenario: Scenario): Route;
  mulberry32(seed: number): () => number;
}
type Match = { name: string; value?: number } | undefined;
interface RoutesModule {
  createRouter(routes: Record<string, Route>): { get(url: string): Match; graphql(query: string): Match };
}
interface RowsModule {
  withParentIds(statement: { sql: string; bindings: unknown[] }, ids: number[]): { sql: string; bindings: unknown[] };
}
interface VerifyModule {
  verifySame(scenario: Scenario, tessera: Capture, baseline: Capture, sample: Sample, value?: number): { bytes: number };
}

/* eslint-disable @typescript-eslint/no-require-imports -- the bench is plain JavaScript run by node */
const bench = require('../scenarios') as ScenariosModule;
const { createRouter } = require('../baseline-routes') as RoutesModule;
const { withParentIds } = require('../baseline-rows') as RowsModule;
const { verifySame } = require('../verify') as VerifyModule;
/* eslint-enable @typescript-eslint/no-require-imports */

function routerFor(mode: 'varied' | 'fixed') {
  const reads = bench.scenarios('token', { mode }).filter((scenario) => scenario.read);
  return { reads, router: createRouter(Object.fromEntries(reads.map((scenario) => [scenario.name, bench.routeOf(scenario)]))) };
}

/** What the baseline's router makes of a request. */
function route(router: ReturnType<typeof createRouter>, request: BenchRequest): Match {
  return request.method === 'POST' ? router.graphql(request.body?.query ?? '') : router.get(request.path);
}

describe('bench: varied requests', () => {
  it('sends the same sequence on every run and to both servers, every request of a scenario different in its value', () => {
    for (const scenario of bench.scenarios('token', { mode: 'varied' }).filter((item) => item.read)) {
      const first = bench.requestsFor(scenario, 'tessera');
      const again = bench.requestsFor(scenario, 'baseline');
      const sent = Array.from({ length: 50 }, () => JSON.stringify(first()));
      expect(Array.from({ length: 50 }, () => JSON.stringify(again())), scenario.name).to.deep.equal(sent);
      // 10 categories; every other scenario draws from hundreds of values.
      expect(new Set(sent).size, scenario.name).to.be.at.least(scenario.vary === 'category' ? 9 : 40);
    }
    expect(Array.from({ length: 3 }, bench.mulberry32(7))).to.deep.equal(Array.from({ length: 3 }, bench.mulberry32(7)));
    expect(bench.mulberry32(7)()).to.not.equal(bench.mulberry32(8)());
  });

  it("routes every request of every read scenario to that scenario and the number in it, in both modes", () => {
    for (const mode of ['varied', 'fixed'] as const) {
      const { reads, router } = routerFor(mode);
      for (const scenario of reads) {
        const next = bench.requestsFor(scenario, 'tessera');
        for (let i = 0; i < 200; i += 1) {
          const request = next();
          const match = route(router, request);
          expect(match?.name, `${mode} ${request.path} ${request.body?.query ?? ''}`).to.equal(scenario.name);
          const text = request.method === 'POST' ? request.body?.query ?? '' : request.path;
          // The number the baseline binds is the one the request carries (a fixed URL stands for its fixed value).
          if (mode === 'varied' || scenario.name === 'get-one') expect(text).to.contain(String(match?.value));
        }
        for (const sample of bench.samplesFor(scenario)) expect(route(router, sample.baseline)).to.deep.equal({ name: scenario.name, value: sample.value });
      }
    }
  });

  it('routes nothing whose varying part is not a number, nor a URL with more after it', () => {
    const { router } = routerFor('varied');
    expect(router.get('/api/articles/abc')).to.equal(undefined);
    expect(router.get('/api/articles?filters[title][$containsi]=9%25&sort=views:desc')).to.equal(undefined);
    expect(router.get('/api/articles?pagination[pageSize]=25&pagination[page]=3&populate=*')).to.equal(undefined);
    expect(router.get('/api/articles?filters[slug][$eq]=article-&populate[category]=*&populate[tags]=*')).to.equal(undefined);
  });

  it("binds this request's parent ids into a populate statement on each database", () => {
    const mysql = {
      sql: 'select `j`.`article_id` as `__source` from `articles_tags_links` as `j` where `j`.`field` = ? and `j`.`article_id` in (?, ?, ?) order by `j`.`id` asc limit ?',
      bindings: ['tags', 1, 2, 4, 16384],
    };
    expect(withParentIds(mysql, [7, 8])).to.deep.equal({
      sql: 'select `j`.`article_id` as `__source` from `articles_tags_links` as `j` where `j`.`field` = ? and `j`.`article_id` in (?, ?) order by `j`.`id` asc limit ?',
      bindings: ['tags', 7, 8, 16384],
    });
    // Padded to a power of two with the last id, as Tessera pads MySQL id lists.
    expect(withParentIds(mysql, [7, 8, 9]).bindings).to.deep.equal(['tags', 7, 8, 9, 9, 16384]);
    const sqlite = { sql: 'select 1 where `j`.`article_id` IN (SELECT value FROM json_each(?)) limit ?', bindings: ['[1,2,4]', 16384] };
    expect(withParentIds(sqlite, [7, 8]).bindings).to.deep.equal(['[7,8]', 16384]);
    const postgres = { sql: 'select 1 where "j"."article_id" = any($1) limit $2', bindings: ['{1,2,4}', 16384] };
    expect(withParentIds(postgres, [7, 8]).bindings).to.deep.equal(['{7,8}', 16384]);
  });

  it("refuses a baseline that answered a second sample with the first sample's bindings", () => {
    const list = bench.scenarios('token', { mode: 'varied' }).find((scenario) => scenario.name === 'list-search')!;
    const [, second] = bench.samplesFor(list);
    const answer = (term: number): Capture => ({
      status: 200,
      body: JSON.stringify({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } }),
      headers: [['content-type', 'application/json; charset=utf-8']],
      queries: [{ sql: 'select … where `title` LIKE ? limit ?', bindings: [`%${term}%`, 25] }],
    });
    expect(verifySame(list, answer(42), answer(42), second, 42).bytes).to.be.above(0);
    expect(() => verifySame(list, answer(42), answer(99), second, 42)).to.throw(/sample 42.*SQL or bindings differ/);
  });
});
