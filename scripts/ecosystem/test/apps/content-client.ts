/**
 * Writes seed content into a running Strapi-compatible server through its content API, then asks it requests and
 * reduces each answer to what must not differ between two servers holding the same content: timestamps, file
 * hashes and URLs, and stored byte sizes are masked (they depend on the clock, random hashes and the image
 * library), everything else — ids, order, shapes, values, pagination — is kept.
 *
 * Used on Tessera by the tests, and against a real Strapi 4.26.2 to record its answers (`record-strapi.js`).
 *
 * A frontend that signs its users in is replayed as it runs: a request may keep the JWT and user id a
 * register/login answer holds (`as`), later ones send that JWT (`jwt`) and name the user's id (`$as`). JWTs are
 * masked in the answers (they hold the clock); what an admin does in the admin panel between two requests (give a
 * user credits) is an `admin` step, written to the database by the runner.
 */
import sharp from 'sharp';

export type Ids = Record<string, number>;

/** A PNG made for the test: its file name, size and colour. */
export interface Picture {
  name: string;
  width: number;
  height: number;
  rgb: [number, number, number];
}

/** A write of the seed: an upload (`file`), a JSON request (`as` names the id it returns) or an admin's step. */
export type SeedStep = { as: string; upload: Picture } | { as?: string; method: 'POST' | 'PUT'; path: string; body: unknown } | AdminStep;

/**
 * A request a frontend sends: where it builds it, the path with its query string (`$name` for a seeded id), and,
 * for a write, its method and body (`upload`: a multipart POST of one picture in `files`, as the upload plugin
 * takes it); `token` names the API token it sends (`TOKENS` of the app's content module), `jwt` the signed-in user
 * whose JWT it sends, none of them when it asks as the public. `as` keeps under that name the id its answer gives
 * (the user of a sign-in, with its `jwt`; the first file of an upload; the entry of a write).
 */
export interface ClientRequest {
  from: string;
  path: string;
  method?: 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  upload?: Picture;
  token?: string;
  jwt?: string;
  as?: string;
}

/**
 * What an app's admin does in the admin panel (add a locale, give a user credits): a row of `uid` created with
 * `data`, or, with `where`, the rows it matches updated (`$name` values are ids), through the server's query
 * engine. Among the requests, its answer is recorded as status 0.
 */
export interface AdminStep {
  from: string;
  admin: { uid: string; where?: Record<string, unknown>; data: Record<string, unknown> };
}

/** The runner's database write for an admin step (`strapi.query(uid)` and Tessera's `app.db.query(uid)`). */
export type AdminWrite = (uid: string, data: Record<string, unknown>, where?: Record<string, unknown>) => Promise<void>;

async function runAdminStep(step: AdminStep, ids: Ids, admin: AdminWrite | undefined): Promise<void> {
  if (!admin) throw new Error(`${step.from}: an admin step needs the runner's database write`);
  const { uid, where, data } = step.admin;
  await admin(uid, fillIds(data, ids) as Record<string, unknown>, where && (fillIds(where, ids) as Record<string, unknown>));
}

/** Role type (`public`, `authenticated`) → the actions an app's admin grants it (`api::summary.summary.create`). */
export type RoleActions = Record<string, string[]>;

/** Custom API tokens by name → their actions (`api::page.page.find`), as an app's README has you create them. */
export type TokenPermissions = Record<string, string[]>;

export interface Answer {
  path: string;
  status: number;
  body: unknown;
}

export async function seed(base: string, token: string, steps: SeedStep[], admin?: AdminWrite): Promise<Ids> {
  const ids: Ids = {};
  for (const step of steps) {
    if ('admin' in step) {
      await runAdminStep(step, ids, admin);
      continue;
    }
    if ('upload' in step) {
      const response = await fetch(`${base}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: await pictureForm(step.upload) });
      const body = (await response.json()) as Array<{ id: number }>;
      if (response.status !== 200) throw new Error(`upload ${step.upload.name}: ${response.status} ${JSON.stringify(body)}`);
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

/** The multipart body of an upload of `picture` (a PNG of its size and colour) in the `files` field. */
async function pictureForm({ name, width, height, rgb }: Picture): Promise<FormData> {
  const png = await sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } }).png().toBuffer();
  const form = new FormData();
  form.append('files', new Blob([png], { type: 'image/png' }), name);
  return form;
}

/**
 * Sends the requests in order; `accessKeys` holds the access key of each token the requests name, `admin` writes
 * the admin steps (they fail the run when there is none). `ids` gains the user ids of the answers a request keeps.
 */
export async function ask(base: string, requests: Array<ClientRequest | AdminStep>, ids: Ids, accessKeys: Record<string, string> = {}, admin?: AdminWrite): Promise<Answer[]> {
  const answers: Answer[] = [];
  const jwts: Record<string, string> = {};
  for (const request of requests) {
    if ('admin' in request) {
      await runAdminStep(request, ids, admin);
      answers.push({ path: `(admin) ${request.from}`, status: 0, body: null });
      continue;
    }
    const headers: Record<string, string> = {};
    if (request.token) headers.authorization = `Bearer ${accessKeys[request.token]}`;
    if (request.jwt) headers.authorization = `Bearer ${jwts[request.jwt]}`;
    let body: string | FormData | undefined;
    if (request.upload) body = await pictureForm(request.upload);
    else if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(fillIds(request.body, ids));
    }
    const response = await fetch(`${base}${fill(request.path, ids)}`, { method: request.upload ? 'POST' : (request.method ?? 'GET'), headers, body });
    const answer: unknown = await response.json();
    if (request.as) keep(request, answer, ids, jwts);
    answers.push({ path: request.path, status: response.status, body: normalize(answer) });
  }
  return answers;
}

/** Keeps what `request.as` names from its answer: a sign-in's JWT and user id, an upload's first file id, an entry's id. */
function keep(request: ClientRequest, answer: unknown, ids: Ids, jwts: Record<string, string>): void {
  const name = request.as!;
  const session = answer as { jwt?: unknown; user?: { id?: unknown }; data?: { id?: unknown } } | Array<{ id?: unknown }>;
  const id = Array.isArray(session) ? session[0]?.id : (session.user?.id ?? session.data?.id);
  if (typeof id !== 'number') throw new Error(`${request.from}: no id to keep as ${name} in ${JSON.stringify(answer)}`);
  ids[name] = id;
  if (!Array.isArray(session) && typeof session.jwt === 'string') jwts[name] = session.jwt;
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
      if (key === 'jwt' && typeof item === 'string') return [key, '<jwt>'];
      if (isFile && key === 'hash') return [key, '<hash>'];
      // Stored names end in a random hash, also when only `url` was selected (`populate[images][fields]=url`).
      if (key === 'url' && typeof item === 'string' && item.startsWith('/uploads/')) return [key, '<url>'];
      if (isFile && key === 'size') return [key, '<size>'];
      return [key, normalize(item)];
    }),
  );
}
