/**
 * Static files from `public/` (Strapi's `strapi::public`): content types,
 * caching headers, HEAD and conditional requests, and no way out of the folder.
 */
import { expect } from 'chai';
import { startApp, type TestApp } from '@tessera/testing';
import { NOTE_FILES, NOT_FOUND, raw } from './middleware-helpers';

const PUBLIC_FILES = {
  ...NOTE_FILES,
  'secret.txt': 'outside public',
  'public/hello.txt': 'hello from public',
  'public/page.html': '<!doctype html><title>explorer</title>',
  'public/sub/deep.json': '{"deep":true}',
  'public/.hidden': 'hidden',
  'public/api/notes': 'a file must not shadow the API',
  'public/shadowed.txt': 'from the file',
  'public/owned/page.html': 'behind the owning route',
  'src/api/probe/routes/raw.ts': `
export default {
  type: 'raw',
  routes: [
    { method: 'GET', path: '/shadowed.txt', handler: () => 'from the route', config: { auth: false } },
    { method: 'GET', path: '/owned/:name', handler: () => 'from the owning route', config: { auth: false } },
  ],
};
`,
};

describe('global middlewares: static files from public/ [sqlite]', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect: 'sqlite', files: PUBLIC_FILES });
  });
  after(() => app.stop());

  it('serves files with their content type, for GET and HEAD, with caching headers', async () => {
    const text = await app.get('/hello.txt');
    expect(text.status).to.equal(200);
    expect(text.text).to.equal('hello from public');
    expect(text.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    expect(text.headers.get('cache-control')).to.equal('max-age=60');
    expect(text.headers.get('x-content-type-options')).to.equal('nosniff');
    const page = await app.get('/page.html');
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(page.text).to.equal('<!doctype html><title>explorer</title>');
    const nested = await app.get('/sub/deep.json');
    expect(nested.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(nested.body).to.deep.equal({ deep: true });
    const encoded = await raw(app, 'GET', '/hello%2Etxt');
    expect(encoded.text).to.equal('hello from public');

    const head = await raw(app, 'HEAD', '/hello.txt');
    expect(head.status).to.equal(200);
    expect(head.headers['content-length']).to.equal(String('hello from public'.length));
    expect(head.text).to.equal('');
    const notModified = await raw(app, 'GET', '/hello.txt', { 'if-modified-since': text.headers.get('last-modified')! });
    expect(notModified.status).to.equal(304);
  });

  it('refuses other methods, directories (no listing), hidden files and unknown files with a 404 envelope', async () => {
    for (const [method, requestPath] of [
      ['POST', '/hello.txt'],
      ['DELETE', '/hello.txt'],
      ['GET', '/sub'],
      ['GET', '/sub/'],
      ['GET', '/'],
      ['GET', '/.hidden'],
      ['GET', '/missing.txt'],
    ]) {
      const response = await raw(app, method, requestPath);
      expect(response.status, `${method} ${requestPath}`).to.equal(404);
      expect(JSON.parse(response.text), `${method} ${requestPath}`).to.deep.equal(NOT_FOUND);
    }
  });

  it('never escapes public/, whatever the spelling of ..', async () => {
    for (const requestPath of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/sub/..%2f..%2fsecret.txt',
      '/sub/%2e%2e/%2e%2e/secret.txt',
      '/..%5csecret.txt',
      '/%2e%2e%5csecret.txt',
      '/hello.txt%00.html',
      '/%E0%A4%A',
    ]) {
      const response = await raw(app, 'GET', requestPath);
      expect(response.status, requestPath).to.equal(404);
      expect(response.text, requestPath).to.not.contain('outside public');
      expect(JSON.parse(response.text), requestPath).to.deep.equal(NOT_FOUND);
    }
  });

  it('never shadows a route: /api paths and routed paths go to their routes', async () => {
    const notes = await app.get('/api/notes');
    expect(notes.status).to.equal(200);
    expect(notes.body).to.deep.equal({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
    const routed = await app.get('/shadowed.txt');
    expect(routed.text).to.equal('from the route');
  });

  it('a route owns its paths in every spelling: encoded letters, an encoded or doubled / never reach the file behind it', async () => {
    expect((await app.get('/owned/page.html')).text).to.equal('from the owning route');
    for (const requestPath of ['/%6Fwned/page.html', '/%6f%77%6e%65%64/page.html', '/owned%2Fpage.html', '/owned%2fpage.html', '//owned/page.html', '/owned//page.html']) {
      const response = await raw(app, 'GET', requestPath);
      expect(response.text, requestPath).to.not.contain('behind the owning route');
      expect(response.status, requestPath).to.be.oneOf([200, 404]);
      if (response.status === 200) expect(response.text, requestPath).to.equal('from the owning route');
    }
    for (const requestPath of ['/sub//deep.json', '//hello.txt', '/sub/deep.json/']) {
      expect((await raw(app, 'GET', requestPath)).status, requestPath).to.equal(404);
    }
  });
});
