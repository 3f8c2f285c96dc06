/**
 * The HTTP layer: every failure answers the Strapi v4 error envelope —
 * unknown routes, wrong methods, bodies over the limit, malformed JSON.
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const NOTE_FILES = {
  'src/api/note/content-types/note/schema.json': {
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' }, body: { type: 'text' } },
  },
};

function envelope(status: number, name: string, message: string, details: Record<string, unknown> = {}) {
  return { data: null, error: { status, name, message, details } };
}

const NOT_FOUND = envelope(404, 'NotFoundError', 'Not Found');
const METHOD_NOT_ALLOWED = envelope(405, 'MethodNotAllowedError', 'Method Not Allowed');
const TOO_LARGE = envelope(413, 'PayloadTooLargeError', 'Payload Too Large');

/** A `{ data: { body } }` JSON document of about `bytes` bytes. */
function bodyOfSize(bytes: number): string {
  return JSON.stringify({ data: { body: 'x'.repeat(bytes) } });
}

eachDatabase('HTTP errors', (dialect) => {
  describe('with the default body limit (1mb)', () => {
    let app: TestApp;
    let token: string;
    before(async () => {
      app = await startApp({ dialect, files: NOTE_FILES });
      token = await app.fullAccessToken();
    });
    after(() => app.stop());

    it('answers unknown routes with a 404 envelope, whatever the method', async () => {
      for (const [method, path] of [
        ['GET', '/api/nope'],
        ['GET', '/'],
        ['POST', '/api/nope'],
        ['DELETE', '/api/notes/1/extra'],
        ['GET', '/api/notes/1/extra'],
      ]) {
        const response = await app.request(method, path, { token, body: method === 'POST' ? { data: {} } : undefined });
        expect(response.status, `${method} ${path}`).to.equal(404);
        // Paths under /api/ carry a hint (route-hints.test.ts); the envelope is the same.
        const { hint: _hint, ...details } = response.body.error.details;
        expect({ ...response.body, error: { ...response.body.error, details } }, `${method} ${path}`).to.deep.equal(NOT_FOUND);
        expect(response.headers.get('content-type')).to.match(/^application\/json/);
      }
    });

    it('answers a wrong method on a known path with a 405 envelope and an Allow header', async () => {
      const collection = await app.request('PATCH', '/api/notes', { token, body: { data: {} } });
      expect(collection.status).to.equal(405);
      expect(collection.body).to.deep.equal(METHOD_NOT_ALLOWED);
      expect(collection.headers.get('allow')).to.equal('HEAD, GET, POST');
      const entry = await app.request('POST', '/api/notes/1', { token, body: { data: {} } });
      expect(entry.status).to.equal(405);
      expect(entry.body).to.deep.equal(METHOD_NOT_ALLOWED);
      expect(entry.headers.get('allow')).to.equal('HEAD, GET, PUT, DELETE');
      const unusual = await app.request('PROPFIND', '/api/notes', { token });
      expect(unusual.status).to.equal(405);
      expect(unusual.body).to.deep.equal(METHOD_NOT_ALLOWED);
    });

    it('answers a body over 1mb with a 413 envelope and writes nothing', async () => {
      const response = await app.request('POST', '/api/notes', { token, rawBody: bodyOfSize(1.1 * 1024 * 1024) });
      expect(response.status).to.equal(413);
      expect(response.body).to.deep.equal(TOO_LARGE);
      expect(await app.app.entityService.count('api::note.note')).to.equal(0);
    });

    it('answers a corrupt or unsupported Content-Encoding with a 4xx envelope (was a 500), and a valid gzip body works', async () => {
      const { gzipSync } = await import('node:zlib');
      const send = (encoding: string, body: Uint8Array | string) =>
        fetch(`${app.url}/api/notes`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': encoding }, body });
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const response = await send(encoding, 'not compressed');
        expect(response.status, encoding).to.equal(400);
        expect(await response.json(), encoding).to.deep.equal(envelope(400, 'ValidationError', 'Invalid request body'));
      }
      const unknown = await send('x-unknown', '{}');
      expect(unknown.status).to.equal(415);
      expect(await unknown.json()).to.deep.equal(envelope(415, 'UnsupportedMediaTypeError', 'Unsupported Media Type'));
      const zipped = await send('gzip', gzipSync(JSON.stringify({ data: { title: 'zipped' } })));
      expect(zipped.status).to.equal(200);
      const created = (await zipped.json()) as { data: { id: number; attributes: { title: string } } };
      expect(created.data.attributes.title).to.equal('zipped');
      expect((await app.delete(`/api/notes/${created.data.id}`, { token })).status).to.equal(200);
    });

    it('refuses a text body in a charset other than UTF-8 with a 415 envelope and writes nothing; UTF-8 in any spelling works', async () => {
      const send = (contentType: string, body: Uint8Array | string) =>
        fetch(`${app.url}/api/notes`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, body });
      const json = JSON.stringify({ data: { title: 'Grüße' } });
      const utf16 = new Uint8Array(Buffer.from(`\ufeff${json}`, 'utf16le'));
      for (const [contentType, body] of [
        ['application/json; charset=utf-16', utf16],
        ['application/json; charset=UTF-16LE', utf16],
        ['application/json; charset=iso-8859-1', new Uint8Array(Buffer.from(json, 'latin1'))],
        ['application/x-www-form-urlencoded; charset=windows-1252', 'data[title]=x'],
        ['text/plain; charset=shift_jis', 'x'],
      ] as Array<[string, Uint8Array | string]>) {
        const response = await send(contentType, body);
        expect(response.status, contentType).to.equal(415);
        const charset = contentType.split('charset=')[1].toLowerCase();
        expect(await response.json(), contentType).to.deep.equal(
          envelope(415, 'UnsupportedMediaTypeError', `Unsupported charset "${charset}": send the request body as UTF-8`),
        );
      }
      expect(await app.app.entityService.count('api::note.note')).to.equal(0);
      for (const contentType of ['application/json; charset=utf-8', 'application/json; charset=UTF8', 'application/json']) {
        const response = await send(contentType, json);
        expect(response.status, contentType).to.equal(200);
        const created = (await response.json()) as { data: { id: number; attributes: { title: string } } };
        expect(created.data.attributes.title, contentType).to.equal('Grüße');
        expect((await app.delete(`/api/notes/${created.data.id}`, { token })).status).to.equal(200);
      }
    });

    it('accepts a body just under 1mb', async () => {
      const response = await app.request('POST', '/api/notes', { token, rawBody: bodyOfSize(1000 * 1000) });
      expect(response.status).to.equal(200);
      expect(response.body.data.attributes.body).to.have.length(1000 * 1000);
      await app.delete(`/api/notes/${response.body.data.id}`, { token });
    });

    it('answers malformed JSON with a 400 envelope, not a 500', async () => {
      // Bare JSON scalars are refused as well: a body is an object (or an array).
      for (const rawBody of ['{"data": {"title": ', '{data: 1}', '[1, 2', 'nul', '"text"', '42']) {
        const response = await app.request('POST', '/api/notes', { token, rawBody });
        expect(response.status, rawBody).to.equal(400);
        expect(response.body, rawBody).to.deep.equal(envelope(400, 'ValidationError', 'Invalid JSON in the request body'));
      }
      expect(await app.app.entityService.count('api::note.note')).to.equal(0);
    });

    it('drops a `__proto__` key of a JSON body: Strapi 4.26.2 ignores a top-level one (200) and 500s on one in data; no prototype changes', async () => {
      for (const rawBody of ['{"__proto__":{"a":1},"data":{"title":"top"}}', '{"data":{"title":"in data","__proto__":{"polluted":1}}}', '{"data":{"__proto__":{"title":"hidden"},"title":"nested"}}']) {
        const response = await app.request('POST', '/api/notes', { token, rawBody });
        expect(response.status, rawBody).to.equal(200);
        expect(Object.keys(response.body.data.attributes), rawBody).to.deep.equal(['title', 'body', 'createdAt', 'updatedAt']);
        expect(response.body.data.attributes.title, rawBody).to.be.oneOf(['top', 'in data', 'nested']);
        expect((await app.delete(`/api/notes/${response.body.data.id}`, { token })).status).to.equal(200);
      }
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      expect(({} as Record<string, unknown>).a).to.equal(undefined);
    });

    it('answers a JSON body that is not an object with data with a 400 envelope', async () => {
      for (const rawBody of ['[]', '{}', '{"title":"no data wrapper"}']) {
        const response = await app.request('POST', '/api/notes', { token, rawBody });
        expect(response.status, rawBody).to.equal(400);
        expect(response.body, rawBody).to.deep.equal(envelope(400, 'ValidationError', 'Missing "data" payload in the request body'));
      }
    });

    it('serves JSON with the right content type', async () => {
      const response = await app.get('/api/notes', { token });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    });
  });

  describe('with server.body.jsonLimit = 1kb', () => {
    let app: TestApp;
    let token: string;
    before(async () => {
      app = await startApp({ dialect, files: NOTE_FILES, config: { server: { body: { jsonLimit: '1kb' } } } });
      token = await app.fullAccessToken();
    });
    after(() => app.stop());

    it('answers 413 over the configured limit and accepts bodies under it', async () => {
      const over = await app.request('POST', '/api/notes', { token, rawBody: bodyOfSize(1100) });
      expect(over.status).to.equal(413);
      expect(over.body).to.deep.equal(TOO_LARGE);
      const under = await app.request('POST', '/api/notes', { token, rawBody: bodyOfSize(900) });
      expect(under.status).to.equal(200);
    });

    it('applies the limit to PUT too', async () => {
      const created = await app.post('/api/notes', { data: { title: 'small' } }, { token });
      const over = await app.request('PUT', `/api/notes/${created.body.data.id}`, { token, rawBody: bodyOfSize(2048) });
      expect(over.status).to.equal(413);
      expect(over.body).to.deep.equal(TOO_LARGE);
    });
  });
});
