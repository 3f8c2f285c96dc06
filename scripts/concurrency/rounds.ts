/**
 * Drives the history checker against a running app: seeds a few entries,
 * then for each round fires a seeded mix of requests at once, records every
 * answer with its times, reads the resulting state and asks the checker for
 * a serial order that explains it all. The next round starts from that state.
 */
import { performance } from 'node:perf_hooks';
import type { TestApp } from '@tessera/testing';
import { checkHistory, type Recorded } from './checker';
import { emptyState, step, type State } from './model';
import { articleAttributes, generateRound, observe, random, toRequest, type Op } from './workload';

export interface RunOptions {
  seed: number;
  rounds: number;
  /** Requests per round: each round draws a count in [min, max]. */
  requests: [number, number];
}

export interface RunResult {
  rounds: number;
  requests: number;
  /** Status counts over every concurrent request. */
  statuses: Record<number, number>;
  /** The most search steps one round needed (see checker.ts). */
  maxSteps: number;
  /** The first violation's report, when there was one. */
  violation?: string;
}

/** Live articles and tags kept between rounds: at least a few to aim at, few enough to read in one page. */
const LIVE_MINIMUM = 3;
const LIVE_MAXIMUM = 8;

export async function runRounds(app: TestApp, token: string, options: RunOptions): Promise<RunResult> {
  const rand = random(options.seed);
  const result: RunResult = { rounds: 0, requests: 0, statuses: {}, maxSteps: 0 };
  let state = await seed(app, token);
  for (let round = 0; round < options.rounds; round++) {
    state = await topUp(app, token, state, round);
    const [min, max] = options.requests;
    const ops = generateRound(state, rand, round, min + Math.floor(rand() * (max - min + 1)));
    const history = await fire(app, token, ops);
    const final = await readState(app, token, state);
    const verdict = checkHistory(state, history, final);
    result.rounds++;
    result.requests += history.length;
    for (const entry of history) result.statuses[entry.observed.status] = (result.statuses[entry.observed.status] ?? 0) + 1;
    if (!verdict.ok) {
      result.violation = `seed ${options.seed}, round ${round}\n${verdict.report}`;
      return result;
    }
    result.maxSteps = Math.max(result.maxSteps, verdict.steps);
    state = settle(final, history);
  }
  return result;
}

/** Two categories (never written concurrently) and an empty rest. */
async function seed(app: TestApp, token: string): Promise<State> {
  let state = emptyState();
  for (const name of ['C1', 'C2']) {
    const response = await app.post('/api/categories', { data: { name } }, { token });
    if (response.status !== 200) throw new Error(`seeding category ${name}: ${response.status} ${response.text}`);
    state.categories[response.body.data.id] = [];
  }
  state = await topUp(app, token, state, -1);
  return state;
}

/**
 * Keeps the round's target small: serially creates articles and tags until a few of each exist, and deletes the
 * oldest beyond a handful; each answer is checked against the model.
 */
async function topUp(app: TestApp, token: string, state: State, round: number): Promise<State> {
  const ops: Op[] = [];
  const articles = Object.keys(state.articles).map(Number);
  const tags = Object.keys(state.tags).map(Number);
  for (let n = tags.length; n < LIVE_MINIMUM; n++) ops.push({ kind: 'createTag', name: `seed${round}t${n}` });
  for (let n = articles.length; n < LIVE_MINIMUM; n++) {
    ops.push({ kind: 'createArticle', title: `seed${round}a${n}`, views: n, draft: false, tags: [], category: null });
  }
  for (const id of articles.slice(0, Math.max(0, articles.length - LIVE_MAXIMUM))) ops.push({ kind: 'deleteArticle', id });
  for (const id of tags.slice(0, Math.max(0, tags.length - LIVE_MAXIMUM))) ops.push({ kind: 'deleteTag', id });
  for (const op of ops) {
    const request = toRequest(op);
    const response = await app.request(request.method, request.path, { body: request.body, token });
    const result = step(state, op, observe(op, response.status, response.body));
    if (!result.ok) throw new Error(`preparing round ${round}: ${request.method} ${request.path}: ${result.why}`);
    state = settle(result.next);
  }
  return state;
}

async function fire(app: TestApp, token: string, ops: Op[]): Promise<Recorded[]> {
  const origin = performance.now();
  return Promise.all(
    ops.map(async (op) => {
      const request = toRequest(op);
      const start = performance.now() - origin;
      const response = await app.request(request.method, request.path, { body: request.body, token });
      const end = performance.now() - origin;
      return { op, observed: observe(op, response.status, response.body), start, end };
    }),
  );
}

/** The content as the API reports it now, in the model's shape; id floors move up to the highest id seen. */
async function readState(app: TestApp, token: string, before: State): Promise<State> {
  const list = async (path: string) => {
    const response = await app.get(path, { token });
    if (response.status !== 200) throw new Error(`reading ${path}: ${response.status} ${response.text}`);
    if (response.body.meta.pagination.total > response.body.data.length) throw new Error(`reading ${path}: more entries than one page`);
    return response.body.data;
  };
  const ids = (relation: any): number[] => (relation?.data ?? []).map((item: { id: number }) => item.id);
  const state: State = { articles: {}, tags: {}, categories: {}, homepage: null, idFloor: { ...before.idFloor } };
  const page = 'publicationState=preview&pagination[pageSize]=100&sort=id';
  for (const item of await list(`/api/articles?${page}&populate[tags][fields][0]=id&populate[category][fields][0]=id`)) {
    const { id: _id, ...article } = articleAttributes(item.id, item.attributes);
    state.articles[item.id] = article as unknown as State['articles'][number];
  }
  for (const item of await list(`/api/tags?${page}&populate[articles][fields][0]=id`)) state.tags[item.id] = { name: item.attributes.name, articles: ids(item.attributes.articles) };
  for (const item of await list(`/api/categories?${page}&populate[articles][fields][0]=id`)) state.categories[item.id] = ids(item.attributes.articles);
  const homepage = await app.get('/api/homepage?publicationState=preview&populate[featuredArticles][fields][0]=id', { token });
  if (homepage.status === 200) {
    const data = homepage.body.data;
    state.homepage = { id: data.id, title: data.attributes.title, featured: ids(data.attributes.featuredArticles) };
  } else if (homepage.status !== 404) throw new Error(`reading the homepage: ${homepage.status} ${homepage.text}`);
  return state;
}

/** Every id in use or created so far counts as used: later creates must return other ones. */
function settle(state: State, history: Recorded[] = []): State {
  const created = (kinds: string[]) => history.filter((entry) => kinds.includes(entry.op.kind) && entry.observed.status === 200).map((entry) => entry.observed.entry!.id);
  const floor = (current: number, ids: number[]) => Math.max(current, ...ids);
  return {
    ...state,
    idFloor: {
      articles: floor(state.idFloor.articles, [...Object.keys(state.articles).map(Number), ...created(['createArticle'])]),
      tags: floor(state.idFloor.tags, [...Object.keys(state.tags).map(Number), ...created(['createTag'])]),
      homepage: floor(state.idFloor.homepage, [...(state.homepage ? [state.homepage.id] : []), ...created(['putHomepage'])]),
    },
  };
}
