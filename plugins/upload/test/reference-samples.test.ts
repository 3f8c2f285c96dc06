/**
 * Replays Strapi v4's upload samples (60–75) in order on a copy of the
 * database Strapi made, with the example app: same statuses, same bodies
 * (keys, order, values) once the random parts are normalised — the 10 hex
 * digits of each hash, timestamps, and byte sizes of images (our PNG encoder
 * is not Strapi's; dimensions still must match). Sample 69 is the one
 * deliberate difference: `populate=related` lists the linked entries here
 * (Strapi's content API drops them). SQLite only: the reference database is
 * a SQLite file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import restPlugin from '@tessera/plugin-rest';
import { EXAMPLE_APP, SHARED_REFERENCE, requireReference, startApp, type TestApp } from '@tessera/testing';
import uploadPlugin from '../src';
import { file, multipart, png, type Part } from './fixture';

const SAMPLES = path.join(SHARED_REFERENCE, 'strapi4-samples-plugins');
const DATABASE = path.join(SHARED_REFERENCE, 'strapi4-blog.sqlite');

interface Sample {
  method: string;
  path: string;
  auth: boolean;
  curl: string | undefined;
  json: string | undefined;
  status: number;
  body: string;
}

function readSample(prefix: string): Sample {
  const name = fs.readdirSync(SAMPLES).find((entry) => entry.startsWith(`${prefix}-`));
  if (!name) throw new Error(`no sample ${prefix}`);
  const [request, response] = fs.readFileSync(path.join(SAMPLES, name), 'utf8').split('### RESPONSE');
  const lines = request.replace('### REQUEST', '').trim().split('\n');
  const [method, requestPath] = lines[0].split(' ');
  const last = lines[lines.length - 1];
  return {
    method,
    path: requestPath,
    auth: lines.some((line) => line.startsWith('Authorization:')),
    curl: last.startsWith('curl') ? last : undefined,
    json: last.startsWith('{') ? last : undefined,
    status: Number(/HTTP\/1\.1 (\d{3})/.exec(response)![1]),
    body: response.trim().split('\n').pop()!,
  };
}

/** The random and encoder-dependent parts of a body. */
function normalise(text: string): string {
  return text
    .replace(/_[0-9a-f]{10}(?=[".])/g, '_<hash>')
    .replace(/"(createdAt|updatedAt)":"[^"]+"/g, '"$1":"<time>"')
    .replace(/"mime":"image\/png","size":[\d.]+/g, '"mime":"image/png","size":<kb>')
    .replace(/"size":[\d.]+,"sizeInBytes":\d+/g, '"size":<kb>,"sizeInBytes":<bytes>');
}

/** The sample's `curl -F` parts as real multipart parts (the files they name, rebuilt). */
async function partsOf(curl: string): Promise<Part[]> {
  const parts: Part[] = [];
  for (const [, spec] of curl.matchAll(/-F '([^']*)'/g)) {
    const [name, value] = [spec.slice(0, spec.indexOf('=')), spec.slice(spec.indexOf('=') + 1)];
    if (!value.startsWith('@')) {
      parts.push({ name, value });
      continue;
    }
    const [filename, typePart] = value.slice(1).split(';type=');
    const content = filename.startsWith('gradient') ? await png(640, 480) : 'hello world';
    parts.push(file(content, filename, typePart));
  }
  return parts;
}

describe('upload on the reference database: Strapi samples 60–75 in order [sqlite]', () => {
  let app: TestApp;
  let token: string;
  before(async function () {
    requireReference(this, 'strapi4-blog.sqlite');
    app = await startApp({
      dialect: 'sqlite',
      from: EXAMPLE_APP,
      sqliteFile: DATABASE,
      plugins: [restPlugin, uploadPlugin],
      config: { plugins: { upload: { enabled: true } } },
    });
    token = await app.fullAccessToken();
  });
  after(() => app?.stop());

  const prefixes = ['60', '61', '62', '63', '64', '65', '66', '67', '68', '70', '71', '72', '73', '74', '75'];
  for (const prefix of prefixes) {
    it(`sample ${prefix}: same status and body`, async () => {
      const sample = readSample(prefix);
      const auth = sample.auth ? token : undefined;
      let status: number;
      let body: unknown;
      if (sample.curl) ({ status, body } = await multipart(app, sample.path, await partsOf(sample.curl), auth));
      else ({ status, body } = await app.request(sample.method, sample.path, { token: auth, rawBody: sample.json }));
      expect(status).to.equal(sample.status);
      expect(normalise(JSON.stringify(body))).to.equal(normalise(sample.body));
    });
  }
});

describe('upload on the reference database: rows Strapi wrote read back unchanged [sqlite]', () => {
  let app: TestApp;
  let token: string;
  before(async function () {
    requireReference(this, 'strapi4-blog.sqlite');
    app = await startApp({
      dialect: 'sqlite',
      from: EXAMPLE_APP,
      sqliteFile: DATABASE,
      plugins: [restPlugin, uploadPlugin],
      config: { plugins: { upload: { enabled: true } } },
    });
    token = await app.fullAccessToken();
    // The file of sample 68 and its link to article 1 (sample 71), as Strapi stores them on SQLite.
    const file = JSON.parse(readSample('68').body);
    const { knex } = app.app.db.sql;
    await app.app.db.sql.run(
      knex('files').insert({
        id: file.id,
        name: file.name,
        alternative_text: file.alternativeText,
        caption: file.caption,
        width: file.width,
        height: file.height,
        formats: JSON.stringify(file.formats),
        hash: file.hash,
        ext: file.ext,
        mime: file.mime,
        size: file.size,
        url: file.url,
        preview_url: null,
        provider: file.provider,
        provider_metadata: null,
        folder_path: '/',
        created_at: Date.parse(file.createdAt),
        updated_at: Date.parse(file.updatedAt),
      }),
    );
    await app.app.db.sql.run(knex('files_related_morphs').insert({ file_id: file.id, related_id: 1, related_type: 'api::article.article', field: 'cover', order: 1 }));
  });
  after(() => app?.stop());

  it('GET /api/upload/files/:id answers sample 68 byte for byte', async () => {
    const sample = readSample('68');
    const response = await app.get(sample.path, { token });
    expect(response.status).to.equal(200);
    expect(response.text).to.equal(sample.body);
  });

  it('the article\'s cover populates as sample 71, byte for byte', async () => {
    const sample = readSample('71');
    const response = await app.get(sample.path);
    expect(response.text).to.equal(sample.body);
  });

  it('the list holds it unchanged', async () => {
    const response = await app.get('/api/upload/files', { token });
    expect(response.text).to.equal(`[${readSample('68').body}]`);
  });
});
