/**
 * The serial model the history checker replays requests against: what the
 * content API must answer, and how the content changes, when requests run
 * one after another. Written from the documented contract (README: writing
 * entries, relations), not from the server's code, so the two check each other.
 *
 * Content covered: articles (draft & publish; `tags` many-to-many, `category`
 * many-to-one), tags (the inverse side of `tags`), categories (never written
 * concurrently) and the `homepage` single type (`featuredArticles`).
 */
import type { Op, Position } from './workload';

export interface ArticleState {
  title: string;
  views: number | null;
  published: boolean;
  /** Tag ids in the article's order. */
  tags: number[];
  category: number | null;
}

export interface TagState {
  name: string;
  /** Article ids in the tag's order (the other side of the same join rows). */
  articles: number[];
}

export interface HomepageState {
  id: number;
  title: string;
  featured: number[];
}

/** Plain data (integer-keyed objects iterate in id order), so a JSON string is a canonical key. */
export interface State {
  articles: Record<number, ArticleState>;
  tags: Record<number, TagState>;
  /** Article ids per category, in the category's order. */
  categories: Record<number, number[]>;
  homepage: HomepageState | null;
  /** The highest id each type had used before the round (constant within a round; duplicates within it are checked apart). */
  idFloor: { articles: number; tags: number; homepage: number };
}

/** What a response said, reduced to what the model can predict. */
export interface Observed {
  status: number;
  /** The entry of a 2xx answer. */
  entry?: Record<string, unknown> & { id: number };
  /** A 400's message. */
  message?: string;
}

export type Step = { ok: true; next: State } | { ok: false; why: string };

export function emptyState(): State {
  return { articles: {}, tags: {}, categories: {}, homepage: null, idFloor: { articles: 0, tags: 0, homepage: 0 } };
}

export function stateKey(state: State): string {
  return JSON.stringify(state);
}

/** Applies `op` to `state` if `observed` is what a serial server would have answered; otherwise says why not. */
export function step(state: State, op: Op, observed: Observed): Step {
  const expected = expect(state, op, observed);
  if ('why' in expected) return { ok: false, why: expected.why };
  const mismatch = compare(expected, observed);
  if (mismatch) return { ok: false, why: mismatch };
  return { ok: true, next: expected.next ? expected.next() : state };
}

/** The model's answer: a status, the entry (2xx), the ids a 400 must name, and the next state (2xx). */
interface Expected {
  status: number;
  entry?: Record<string, unknown>;
  missing?: number[];
  anchor?: boolean;
  /** Built only when the answer matched (most candidates of a search step do not). */
  next?: () => State;
}

function expect(state: State, op: Op, observed: Observed): Expected | { why: string } {
  switch (op.kind) {
    case 'createArticle': {
      const missing = op.tags.filter((id) => !state.tags[id]);
      if (missing.length > 0) return { status: 400, missing };
      const id = observed.entry?.id;
      if (observed.status !== 200 || id === undefined) return { status: 200 };
      if (wasUsed(state, 'articles', id)) return { why: `article id ${id} was already in use` };
      const article: ArticleState = { title: op.title, views: op.views, published: !op.draft, tags: [...op.tags], category: op.category };
      const next = (): State => {
        const next = clone(state);
        next.articles[id] = article;
        for (const tag of op.tags) next.tags[tag].articles.push(id);
        if (op.category !== null) next.categories[op.category].push(id);
        return next;
      };
      return { status: 200, entry: articleEntry(id, article), next };
    }
    case 'updateArticle': {
      const current = state.articles[op.id];
      if (!current) return { status: 404 };
      let tags = current.tags;
      if (op.tags) {
        const missing = op.tags.connect.map((item) => item.id).filter((id) => !state.tags[id]);
        if (missing.length > 0) return { status: 400, missing };
        const list = nextList(current.tags, op.tags.connect, op.tags.disconnect);
        if (list === null) return { status: 400, anchor: true };
        tags = list;
      }
      const article: ArticleState = { ...current, title: op.title, views: op.views, tags, category: op.category === undefined ? current.category : op.category };
      const next = (): State => {
        const next = clone(state);
        next.articles[op.id] = article;
        relink(next.tags, op.id, current.tags, tags, (tag) => tag.articles);
        if (article.category !== current.category) {
          if (current.category !== null) remove(next.categories[current.category], op.id);
          if (article.category !== null) next.categories[article.category].push(op.id);
        }
        return next;
      };
      return { status: 200, entry: articleEntry(op.id, article), next };
    }
    case 'publish': {
      const current = state.articles[op.id];
      if (!current) return { status: 404 };
      const article: ArticleState = { ...current, published: op.published };
      const next = (): State => {
        const next = clone(state);
        next.articles[op.id] = article;
        return next;
      };
      return { status: 200, entry: articleEntry(op.id, article), next };
    }
    case 'deleteArticle': {
      const current = state.articles[op.id];
      if (!current) return { status: 404 };
      const next = (): State => {
        const next = clone(state);
        delete next.articles[op.id];
        for (const tag of current.tags) remove(next.tags[tag].articles, op.id);
        if (current.category !== null) remove(next.categories[current.category], op.id);
        if (next.homepage) remove(next.homepage.featured, op.id);
        return next;
      };
      return { status: 200, entry: articleEntry(op.id, current), next };
    }
    case 'createTag': {
      const id = observed.entry?.id;
      if (observed.status !== 200 || id === undefined) return { status: 200 };
      if (wasUsed(state, 'tags', id)) return { why: `tag id ${id} was already in use` };
      const next = (): State => {
        const next = clone(state);
        next.tags[id] = { name: op.name, articles: [] };
        return next;
      };
      return { status: 200, entry: { id, name: op.name, articles: [] }, next };
    }
    case 'connectFromTag': {
      const current = state.tags[op.id];
      if (!current) return { status: 404 };
      const missing = op.connect.map((item) => item.id).filter((id) => !state.articles[id]);
      if (missing.length > 0) return { status: 400, missing };
      const articles = nextList(current.articles, op.connect, op.disconnect);
      if (articles === null) return { status: 400, anchor: true };
      const next = (): State => {
        const next = clone(state);
        next.tags[op.id] = { ...current, articles };
        relink(next.articles, op.id, current.articles, articles, (article) => article.tags);
        return next;
      };
      return { status: 200, entry: { id: op.id, name: current.name, articles }, next };
    }
    case 'deleteTag': {
      const current = state.tags[op.id];
      if (!current) return { status: 404 };
      const next = (): State => {
        const next = clone(state);
        delete next.tags[op.id];
        for (const article of current.articles) remove(next.articles[article].tags, op.id);
        return next;
      };
      return { status: 200, entry: { id: op.id, name: current.name, articles: current.articles }, next };
    }
    case 'putHomepage': {
      const missing = op.featured.filter((id) => !state.articles[id]);
      if (missing.length > 0) return { status: 400, missing };
      const id = state.homepage?.id ?? observed.entry?.id;
      if (observed.status !== 200 || id === undefined) return { status: 200 };
      if (!state.homepage && wasUsed(state, 'homepage', id)) return { why: `homepage id ${id} was already in use` };
      const next = (): State => {
        const next = clone(state);
        next.homepage = { id, title: op.title, featured: [...op.featured] };
        return next;
      };
      return { status: 200, entry: { id, title: op.title, featured: op.featured }, next };
    }
    case 'deleteHomepage': {
      const current = state.homepage;
      if (!current) return { status: 404 };
      const next = (): State => {
        const next = clone(state);
        next.homepage = null;
        return next;
      };
      return { status: 200, entry: { id: current.id, title: current.title, featured: current.featured }, next };
    }
  }
}

function compare(expected: Expected, observed: Observed): string | null {
  if (observed.status !== expected.status) return `answered ${observed.status}, a serial server would answer ${expected.status}${describe(expected)}`;
  if (expected.status === 400) {
    const message = observed.message ?? '';
    if (expected.anchor) return /is not connected at that point/.test(message) ? null : `400 "${message}", expected a position error`;
    const named = idsNamedIn(message);
    const wanted = [...new Set(expected.missing)].sort((a, b) => a - b);
    return JSON.stringify(named) === JSON.stringify(wanted) ? null : `400 "${message}", expected it to name missing id(s) ${wanted.join(', ')}`;
  }
  if (expected.entry && JSON.stringify(observed.entry) !== JSON.stringify(expected.entry)) {
    return `answered ${JSON.stringify(observed.entry)}, a serial server would answer ${JSON.stringify(expected.entry)}`;
  }
  return null;
}

function describe(expected: Expected): string {
  if (expected.missing) return ` (missing id ${expected.missing.join(', ')})`;
  if (expected.entry) return ` ${JSON.stringify(expected.entry)}`;
  return '';
}

/** Ids in a "… with id 3, 7 does not exist" message. */
function idsNamedIn(message: string): number[] {
  const match = /with id ([\d, ]+) does not exist/.exec(message);
  return match ? match[1].split(',').map((part) => Number(part.trim())).sort((a, b) => a - b) : [];
}

/** The documented list semantics: disconnect, then each connect in turn against the list as it is then (no position: the end). */
export function nextList(current: number[], connect: Array<{ id: number; position: Position | null }>, disconnect: number[]): number[] | null {
  let list = current.filter((id) => !disconnect.includes(id));
  for (const item of connect) {
    const rest = list.filter((id) => id !== item.id);
    const position = item.position ?? { end: true };
    if ('start' in position) list = [item.id, ...rest];
    else if ('end' in position) list = [...rest, item.id];
    else {
      const anchor = 'before' in position ? position.before : position.after;
      const index = rest.indexOf(anchor);
      if (index === -1) return null;
      const at = 'before' in position ? index : index + 1;
      list = [...rest.slice(0, at), item.id, ...rest.slice(at)];
    }
  }
  return list;
}

/** Keeps the other side in step: `owner` joins the lists of the targets it gained (last) and leaves those it lost. */
function relink<T>(targets: Record<number, T>, owner: number, before: number[], after: number[], listOf: (target: T) => number[]): void {
  for (const id of before) if (!after.includes(id)) remove(listOf(targets[id]), owner);
  for (const id of after) if (!before.includes(id)) listOf(targets[id]).push(owner);
}

export function articleEntry(id: number, article: ArticleState): Record<string, unknown> & { id: number } {
  return { id, title: article.title, views: article.views, published: article.published, tags: article.tags, category: article.category };
}

function remove(list: number[], id: number): void {
  const index = list.indexOf(id);
  if (index >= 0) list.splice(index, 1);
}

function clone(state: State): State {
  return JSON.parse(JSON.stringify(state)) as State;
}

/** Ids are never reused: a new id is above every id the type had before the round and not in use now. */
function wasUsed(state: State, type: 'articles' | 'tags' | 'homepage', id: number): boolean {
  const ids = type === 'homepage' ? (state.homepage ? [state.homepage.id] : []) : Object.keys(state[type]).map(Number);
  return id <= state.idFloor[type] || ids.includes(id);
}

export type EntryRef = { type: 'articles' | 'tags'; id: number };

/** Entries a 2xx answer shows existed when the request ran: its target and every related id it lists. */
export function shownToExist(op: Op, observed: Observed): EntryRef[] {
  const listed = (key: string, type: EntryRef['type']): EntryRef[] => ((observed.entry?.[key] as number[] | undefined) ?? []).map((id) => ({ type, id }));
  switch (op.kind) {
    case 'createArticle':
      return listed('tags', 'tags');
    case 'updateArticle':
    case 'publish':
    case 'deleteArticle':
      return [{ type: 'articles', id: op.id }, ...listed('tags', 'tags')];
    case 'connectFromTag':
    case 'deleteTag':
      return [{ type: 'tags', id: op.id }, ...listed('articles', 'articles')];
    case 'putHomepage':
    case 'deleteHomepage':
      return listed('featured', 'articles');
    case 'createTag':
      return [];
  }
}

/** The entry a 404 shows was absent when the request ran (the single type aside). */
export function shownAbsent(op: Op): EntryRef | null {
  if (op.kind === 'updateArticle' || op.kind === 'publish' || op.kind === 'deleteArticle') return { type: 'articles', id: op.id };
  if (op.kind === 'connectFromTag' || op.kind === 'deleteTag') return { type: 'tags', id: op.id };
  return null;
}

/** The title a publish or delete answer shows (those requests do not set it; only creates and updates do). */
export function shownTitle(op: Op, observed: Observed): { id: number; title: string } | null {
  if ((op.kind !== 'publish' && op.kind !== 'deleteArticle') || observed.status >= 300 || !observed.entry) return null;
  return { id: op.id, title: String(observed.entry.title) };
}
