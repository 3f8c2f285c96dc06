/**
 * A request corpus from real Strapi v4 frontends, as data: each file names
 * the frontend (repository, commit), the schema files its backend declares
 * (schemas/<name>, kept here as data), a seed written through REST on an
 * empty database, and each request the frontend builds, with where it is
 * built, the status and the shape expected, and what Strapi 4.26.2 answered
 * on the same schemas and seed (`strapi`, filled in by
 * scripts/strapi-peer/record-corpus.js).
 *
 * The same module seeds the peer and Tessera, so both hold the same rows
 * with the same ids.
 */
import fs from 'node:fs';
import path from 'node:path';

export const CORPUS_DIR = __dirname;

export type Expectation = unknown;

export interface CorpusRequest {
  /** Where the frontend builds this request: file:line and the call. */
  source: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** The object the frontend stringifies (with `stringify`), when it builds the URL from one. */
  params?: Record<string, unknown>;
  body?: unknown;
  /**
   * The frontend sends its API token (a full-access one here), or the JWT of the latest answer that held one
   * (`jwt`: a register or login earlier in the corpus, as an SDK keeps it).
   */
  auth?: 'token' | 'jwt';
  status: number;
  /** Path (dot-separated, indexes as numbers) → exact value, or `~array:N`, `~array`, `~object`, `~absent`, `~keys:a,b`. */
  expect: Record<string, Expectation>;
  /** Strapi 4.26.2's answer on the same schemas and seed: its status and the shape of its body. */
  strapi?: { status: number; shape: unknown };
  /**
   * Where Strapi 4.26 answers 500, or 200 with populated data silently dropped, to what an
   * earlier 4.x (qs 6.11) understood: the same meaning in a form 4.26 reads, and its answer.
   */
  equivalent?: { why: string; path: string; strapi?: { status: number; shape: unknown } };
  /** Where Tessera deliberately answers otherwise (README, compatibility). */
  tessera?: { status: number; why: string };
  /**
   * A list answer compared by a key rather than by position: its entries as an object by `key`, only those whose
   * `key` starts with one of `keep` (the shape recorded is of that selection; `why` says what is left out).
   */
  compare?: { list: string; key: string; keep: string[]; why: string };
}

/** `unwrapped`: the body is `data` itself, not `{ data }` (Strapi v4's `POST /api/:type/:id/localizations`). */
export type SeedStep = { upload: string } | { type: string; method?: 'POST' | 'PUT'; data: Record<string, unknown>; unwrapped?: boolean };

export interface Corpus {
  frontend: string;
  repo: string;
  commit: string;
  built: string;
  /**
   * How URLs are built from `params`: `qs.stringify` (qs's defaults), `qs.stringify(params, { encodeValuesOnly: true })`
   * (`qs-values`), or an SDK's own serializer (`sdk`, checked by what the URL parses to).
   */
  stringify?: 'qs' | 'qs-values' | 'sdk';
  schemas: string;
  locales?: string[];
  /** Content types (singular names) anonymous callers may find/findOne. */
  public: string[];
  seed: SeedStep[];
  requests: CorpusRequest[];
  strapiVersion?: string;
}

export function corpusFiles(): string[] {
  return fs.readdirSync(CORPUS_DIR).filter((name) => name.endsWith('.json')).sort();
}

export function readCorpus(name: string): Corpus {
  return JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, name), 'utf8')) as Corpus;
}

/** The schema files of a corpus, by path relative to the app folder. */
export function schemaFiles(corpus: Corpus): Record<string, string> {
  const root = path.join(CORPUS_DIR, corpus.schemas.split(' ')[0]);
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(root, full)] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(root);
  return files;
}

/** Singular name → `collectionType` | `singleType`, from the schema files. */
export function contentTypeKinds(corpus: Corpus): Map<string, string> {
  const kinds = new Map<string, string>();
  for (const [file, text] of Object.entries(schemaFiles(corpus))) {
    const match = /^src\/api\/([^/]+)\/content-types\/[^/]+\/schema\.json$/.exec(file);
    if (match) kinds.set(match[1], (JSON.parse(text) as { kind: string }).kind);
  }
  return kinds;
}

/** Strapi v4 app code, run by both servers at boot: the locales the frontend asks for. */
export function localesBootstrap(corpus: Corpus): string {
  return `module.exports = {
  async bootstrap({ strapi }) {
    const locales = strapi.plugin('i18n').service('locales');
    for (const code of ${JSON.stringify(corpus.locales ?? [])}) {
      if (!(await locales.findByCode(code))) await locales.create({ code, name: code });
    }
  },
};
`;
}

/** A 1×1 PNG, the file every `upload` step sends. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export interface Sender {
  (method: string, pathAndQuery: string, body: unknown): Promise<{ status: number; text: string }>;
  upload(name: string): Promise<{ status: number; text: string }>;
}

export async function seedCorpus(corpus: Corpus, send: Sender): Promise<void> {
  for (const [index, step] of corpus.seed.entries()) {
    const response = 'upload' in step ? await send.upload(step.upload) : await send(step.method ?? 'POST', `/api/${step.type}`, step.unwrapped ? step.data : { data: step.data });
    if (response.status !== 200 && response.status !== 201) throw new Error(`seed step ${index}: ${response.status} ${response.text}`);
  }
}

/** The shape of a JSON value: leaves become their type, arrays keep their length. */
export function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.map(shapeOf);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)).map(([key, item]) => [key, shapeOf(item)]));
  }
  return typeof value;
}

/** The part of an answer compared with Strapi's: all of it, or a list's selected entries in key order (`compare`). */
export function comparedBody(request: CorpusRequest, body: unknown): unknown {
  const compare = request.compare;
  if (!compare || body === null || typeof body !== 'object') return body;
  const list = (body as Record<string, unknown>)[compare.list];
  if (!Array.isArray(list)) return body;
  const keyOf = (entry: unknown): string => String((entry as Record<string, unknown> | null)?.[compare.key] ?? '');
  const kept = list.filter((entry) => compare.keep.some((prefix) => keyOf(entry).startsWith(prefix)));
  return { ...body, [compare.list]: Object.fromEntries(kept.map((entry) => [keyOf(entry), entry])) };
}

/** The JWT an answer hands out (register, login, change-password), or null. */
export function jwtOf(text: string): string | null {
  try {
    const body = JSON.parse(text) as { jwt?: unknown } | null;
    return typeof body?.jwt === 'string' ? body.jwt : null;
  } catch {
    return null;
  }
}

/** Checks one `expect` entry; returns what was wrong, or null. */
export function checkExpectation(body: unknown, dotted: string, expected: Expectation): string | null {
  const keys = dotted.split('.');
  let value: unknown = body;
  for (const [index, key] of keys.entries()) {
    const present = value !== null && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, key);
    if (!present) return expected === '~absent' && index === keys.length - 1 ? null : `${dotted}: missing (${keys.slice(0, index + 1).join('.')})`;
    value = (value as Record<string, unknown>)[key];
  }
  if (expected === '~absent') return `${dotted}: present (${JSON.stringify(value)})`;
  if (typeof expected === 'string' && expected.startsWith('~')) {
    const [kind, argument] = expected.slice(1).split(':');
    if (kind === 'array') {
      if (!Array.isArray(value)) return `${dotted}: not an array (${JSON.stringify(value)})`;
      return argument === undefined || value.length === Number(argument) ? null : `${dotted}: ${value.length} items, not ${argument}`;
    }
    if (kind === 'object') return value !== null && typeof value === 'object' && !Array.isArray(value) ? null : `${dotted}: not an object`;
    if (kind === 'keys') {
      const keysFound = value !== null && typeof value === 'object' ? Object.keys(value).sort().join(',') : '';
      return keysFound === argument.split(',').sort().join(',') ? null : `${dotted}: keys ${keysFound}, not ${argument}`;
    }
    return `${dotted}: unknown expectation ${expected}`;
  }
  return canonical(value) === canonical(expected) ? null : `${dotted}: ${JSON.stringify(value)}, not ${JSON.stringify(expected)}`;
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))) : item,
  );
}
