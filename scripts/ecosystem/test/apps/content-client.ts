/**
 * Writes seed content into a running Strapi-compatible server through its content API, then asks it requests and
 * reduces each answer to what must not differ between two servers holding the same content: timestamps, file
 * hashes and URLs, and stored byte sizes are masked (they depend on the clock, random hashes and the image
 * library), everything else — ids, order, shapes, values, pagination — is kept.
 *
 * Used on Tessera by the tests, and against a real Strapi 4.26.2 to record its answers (`record-strapi.js`).
 */
import sharp from 'sharp';

export type Ids = Record<string, number>;

/** A write of the seed: an upload (`file`) or a JSON request; `as` names the id it returns. */
export type SeedStep =
  | { as: string; upload: { name: string; width: number; height: number; rgb: [number, number, number] } }
  | { as?: string; method: 'POST' | 'PUT'; path: string; body: unknown };

/**
 * A request a frontend sends: where it builds it, the path with its query string (`$name` for a seeded id), and,
 * for a write, its method and body; `token` names the API token it sends (`TOKENS` of the app's content module),
 * none when it asks as the public.
 */
export interface ClientRequest {
  from: string;
  path: string;
  method?: 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  token?: string;
}

/** Custom API tokens by name → their actions (`api::page.page.find`), as an app's README has you create them. */
export type TokenPermissions = Record<string, string[]>;

export interface Answer {
  path: string;
  status: number;
  body: unknown;
}

export async function seed(base: string, token: string, steps: SeedStep[]): Promise<Ids> {
  const ids: Ids = {};
  for (const step of steps) {
    if ('upload' in step) {
      const { name, width, height, rgb } = step.upload;
      const png = await sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } }).png().toBuffer();
      const form = new FormData();
      form.append('files', new Blob([png], { type: 'image/png' }), name);
      const response = await fetch(`${base}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      const body = (await response.json()) as Array<{ id: number }>;
      if (response.status !== 200) throw new Error(`upload ${name}: ${response.status} ${JSON.stringify(body)}`);
      ids[step.as] = body[0].id;
      continue;
    }
    const response = await fetch(`${base}${fill(step.path, ids)}`, {
      method: step.method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(fillIds(step.body, ids)),
    });
    const body = (await response.json()) as { data?: { id: number } };
    if (response.status !== 200) throw new Error(`${step.method} ${step.path}: ${response.status} ${JSON.stringify(body)}`);
    if (step.as) ids[step.as] = body.data!.id;
  }
  return ids;
}

/** Sends the requests in order; `accessKeys` holds the access key of each token the requests name. */
export async function ask(base: string, requests: ClientRequest[], ids: Ids, accessKeys: Record<string, string> = {}): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const request of requests) {
    const headers: Record<string, string> = {};
    if (request.token) headers.authorization = `Bearer ${accessKeys[request.token]}`;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${base}${fill(request.path, ids)}`, {
      method: request.method ?? 'GET',
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(fillIds(request.body, ids)),
    });
    answers.push({ path: request.path, status: response.status, body: normalize(await response.json()) });
  }
  return answers;
}

/** `$name` → the seed's id for `name`, in a path. */
export function fill(path: string, ids: Ids): string {
  return path.replace(/\$([A-Za-z0-9]+)/g, (_, name: string) => String(ids[name] ?? `$${name}`));
}

function fillIds(value: unknown, ids: Ids): unknown {
  if (typeof value === 'string' && value.startsWith('$') && value.slice(1) in ids) return ids[value.slice(1)];
  if (Array.isArray(value)) return value.map((item) => fillIds(item, ids));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillIds(item, ids)]));
  return value;
}

const TIMESTAMPS = new Set(['createdAt', 'updatedAt', 'publishedAt']);

export function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (!value || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const isFile = 'mime' in record && 'hash' in record;
  return Object.fromEntries(
    Object.entries(record).map(([key, item]) => {
      if (TIMESTAMPS.has(key) && typeof item === 'string') return [key, '<time>'];
      if (isFile && key === 'hash') return [key, '<hash>'];
      // Stored names end in a random hash, also when only `url` was selected (`populate[images][fields]=url`).
      if (key === 'url' && typeof item === 'string' && item.startsWith('/uploads/')) return [key, '<url>'];
      if (isFile && key === 'size') return [key, '<size>'];
      return [key, normalize(item)];
    }),
  );
}
