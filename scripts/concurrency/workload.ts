/**
 * Seeded random workloads for the history checker: mixes of creates,
 * updates, deletes, connects (from both sides, with positions) and
 * publishes aimed at a few entries — including ones that may be deleted or
 * created meanwhile — and how each becomes an HTTP request.
 */
import type { Observed, State } from './model';

export type Position = { start: true } | { end: true } | { before: number } | { after: number };

export interface ConnectItem {
  id: number;
  position: Position | null;
}

export type Op =
  | { kind: 'createArticle'; title: string; views: number; draft: boolean; tags: number[]; category: number | null }
  | { kind: 'updateArticle'; id: number; title: string; views: number; tags?: { connect: ConnectItem[]; disconnect: number[] }; category?: number | null }
  | { kind: 'publish'; id: number; published: boolean }
  | { kind: 'deleteArticle'; id: number }
  | { kind: 'createTag'; name: string }
  | { kind: 'connectFromTag'; id: number; connect: ConnectItem[]; disconnect: number[] }
  | { kind: 'deleteTag'; id: number }
  | { kind: 'putHomepage'; title: string; featured: number[] }
  | { kind: 'deleteHomepage' };

export interface HttpRequest {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

/** mulberry32: a small, fast, seedable generator (uniform in [0, 1)). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Which kinds of request a round draws, and how often. */
const WEIGHTS: Array<[Op['kind'], number]> = [
  ['createArticle', 3],
  ['updateArticle', 5],
  ['publish', 2],
  ['deleteArticle', 4],
  ['createTag', 1],
  ['connectFromTag', 4],
  ['deleteTag', 1],
  ['putHomepage', 2],
  ['deleteHomepage', 1],
];

/**
 * `count` requests against a few entries of `state`: up to three live articles and tags, the last one deleted,
 * and the next two ids (which a concurrent create may or may not have made by then).
 */
export function generateRound(state: State, rand: () => number, round: number, count: number): Op[] {
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)];
  const sample = <T>(list: T[], size: number): T[] => [...list].sort(() => rand() - 0.5).slice(0, size);
  const articles = focus(Object.keys(state.articles).map(Number), state.idFloor.articles, sample);
  const tags = focus(Object.keys(state.tags).map(Number), state.idFloor.tags, sample);
  const categories = Object.keys(state.categories).map(Number);
  const position = (anchors: number[]): Position | null => {
    const roll = rand();
    if (roll < 0.3) return null;
    if (roll < 0.5) return { start: true };
    if (roll < 0.6) return { end: true };
    return roll < 0.8 ? { before: pick(anchors) } : { after: pick(anchors) };
  };
  const connectItems = (targets: number[]): ConnectItem[] => sample(targets, 1 + Math.floor(rand() * 2)).map((id) => ({ id, position: position(targets) }));
  const total = WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
  const ops: Op[] = [];
  for (let n = 0; n < count; n++) {
    const label = `r${round}n${n}`;
    let roll = rand() * total;
    const kind = WEIGHTS.find(([, weight]) => (roll -= weight) < 0)![0];
    switch (kind) {
      case 'createArticle':
        ops.push({ kind, title: label, views: n, draft: rand() < 0.3, tags: sample(tags, Math.floor(rand() * 3)), category: rand() < 0.5 ? pick(categories) : null });
        break;
      case 'updateArticle': {
        const op: Op = { kind, id: pick(articles), title: label, views: n };
        if (rand() < 0.7) op.tags = { connect: connectItems(tags), disconnect: rand() < 0.3 ? sample(tags, 1) : [] };
        if (rand() < 0.4) op.category = rand() < 0.2 ? null : pick(categories);
        ops.push(op);
        break;
      }
      case 'publish':
        ops.push({ kind, id: pick(articles), published: rand() < 0.5 });
        break;
      case 'deleteArticle':
        ops.push({ kind, id: pick(articles) });
        break;
      case 'createTag':
        ops.push({ kind, name: label });
        break;
      case 'connectFromTag':
        ops.push({ kind, id: pick(tags), connect: connectItems(articles), disconnect: rand() < 0.2 ? sample(articles, 1) : [] });
        break;
      case 'deleteTag':
        ops.push({ kind, id: pick(tags) });
        break;
      case 'putHomepage':
        ops.push({ kind, title: label, featured: sample(articles, Math.floor(rand() * 3)) });
        break;
      case 'deleteHomepage':
        ops.push({ kind });
        break;
    }
  }
  return ops;
}

/** A few live ids, the most recently deleted one, and the next two ids. */
function focus(live: number[], floor: number, sample: (list: number[], size: number) => number[]): number[] {
  const deleted = floor > 0 && !live.includes(floor) ? [floor] : [];
  return [...sample(live, 3), ...deleted, floor + 1, floor + 2];
}

const ARTICLE_QUERY = '?publicationState=preview&populate[tags][fields][0]=id&populate[category][fields][0]=id';
const TAG_QUERY = '?publicationState=preview&populate[articles][fields][0]=id';
const HOMEPAGE_QUERY = '?publicationState=preview&populate[featuredArticles][fields][0]=id';

export function toRequest(op: Op): HttpRequest {
  switch (op.kind) {
    case 'createArticle': {
      const data: Record<string, unknown> = { title: op.title, views: op.views, tags: op.tags, category: op.category };
      if (op.draft) data.publishedAt = null;
      return { method: 'POST', path: `/api/articles${ARTICLE_QUERY}`, body: { data } };
    }
    case 'updateArticle': {
      const data: Record<string, unknown> = { title: op.title, views: op.views };
      if (op.tags) data.tags = { connect: op.tags.connect.map(connectBody), disconnect: op.tags.disconnect };
      if (op.category !== undefined) data.category = op.category;
      return { method: 'PUT', path: `/api/articles/${op.id}${ARTICLE_QUERY}`, body: { data } };
    }
    case 'publish':
      return { method: 'PUT', path: `/api/articles/${op.id}${ARTICLE_QUERY}`, body: { data: { publishedAt: op.published ? '2024-01-01T00:00:00.000Z' : null } } };
    case 'deleteArticle':
      return { method: 'DELETE', path: `/api/articles/${op.id}${ARTICLE_QUERY}` };
    case 'createTag':
      return { method: 'POST', path: `/api/tags${TAG_QUERY}`, body: { data: { name: op.name } } };
    case 'connectFromTag':
      return { method: 'PUT', path: `/api/tags/${op.id}${TAG_QUERY}`, body: { data: { articles: { connect: op.connect.map(connectBody), disconnect: op.disconnect } } } };
    case 'deleteTag':
      return { method: 'DELETE', path: `/api/tags/${op.id}${TAG_QUERY}` };
    case 'putHomepage':
      return { method: 'PUT', path: `/api/homepage${HOMEPAGE_QUERY}`, body: { data: { title: op.title, featuredArticles: op.featured } } };
    case 'deleteHomepage':
      return { method: 'DELETE', path: `/api/homepage${HOMEPAGE_QUERY}` };
  }
}

function connectBody(item: ConnectItem): unknown {
  return item.position === null ? { id: item.id } : { id: item.id, position: item.position };
}

/** A response reduced to what the model predicts (see model.ts): ids of relations, publication as a flag. */
export function observe(op: Op, status: number, body: any): Observed {
  if (status >= 400) return { status, message: body?.error?.message };
  const data = body?.data;
  if (!data || typeof data.id !== 'number') return { status };
  const attributes = data.attributes ?? {};
  const ids = (relation: any): number[] => (relation?.data ?? []).map((item: { id: number }) => item.id);
  if (op.kind === 'createTag' || op.kind === 'connectFromTag' || op.kind === 'deleteTag') {
    return { status, entry: { id: data.id, name: attributes.name, articles: ids(attributes.articles) } };
  }
  if (op.kind === 'putHomepage' || op.kind === 'deleteHomepage') {
    return { status, entry: { id: data.id, title: attributes.title, featured: ids(attributes.featuredArticles) } };
  }
  return { status, entry: articleAttributes(data.id, attributes) };
}

export function articleAttributes(id: number, attributes: any): Record<string, unknown> & { id: number } {
  return {
    id,
    title: attributes.title,
    views: attributes.views ?? null,
    published: attributes.publishedAt !== null && attributes.publishedAt !== undefined,
    tags: (attributes.tags?.data ?? []).map((item: { id: number }) => item.id),
    category: attributes.category?.data?.id ?? null,
  };
}

/** One line per request, for histories printed on failure. */
export function describeOp(op: Op): string {
  const request = toRequest(op);
  const path = request.path.replace(/\?.*$/, '');
  return `${request.method} ${path}${request.body === undefined ? '' : ` ${JSON.stringify((request.body as { data: unknown }).data)}`}`;
}
