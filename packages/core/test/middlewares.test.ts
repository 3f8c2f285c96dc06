/**
 * The global middleware stack of `config/middlewares.ts`: the default stack
 * (security headers, CORS, X-Powered-By), an app's own stack with configured
 * built-ins and its own global middlewares, multipart bodies and their limits,
 * and a boot that stops on an unknown name (static files: public-files.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigurationError } from '@tessera/core';
import { bootError, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { NOTE_FILES, NOT_FOUND, TOO_LARGE, envelope, raw } from './middleware-helpers';

describe('global middlewares: the default stack [sqlite]', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect: 'sqlite', files: { ...NOTE_FILES, 'favicon.ico': 'icon-bytes' } });
  });
  after(() => app.stop());

  it('sets the security headers and X-Powered-By on answers and on errors', async () => {
    for (const requestPath of ['/api/notes', '/api/nope']) {
      const response = await app.get(requestPath);
      expect(response.status, requestPath).to.equal(requestPath === '/api/notes' ? 200 : 404);
      expect(response.headers.get('x-content-type-options'), requestPath).to.equal('nosniff');
      expect(response.headers.get('x-frame-options'), requestPath).to.equal('DENY');
      expect(response.headers.get('referrer-policy'), requestPath).to.equal('no-referrer');
      expect(response.headers.get('x-powered-by'), requestPath).to.equal('Tessera');
      expect(response.headers.get('content-security-policy'), requestPath).to.equal(
        "default-src 'self'; base-uri 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
          "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; " +
          "form-action 'self'; frame-ancestors 'none'",
      );
    }
  });

  it('allows any origin without credentials, and answers a preflight', async () => {
    const simple = await raw(app, 'GET', '/api/notes', { origin: 'https://anywhere.example' });
    expect(simple.status).to.equal(200);
    expect(simple.headers['access-control-allow-origin']).to.equal('*');
    expect(simple.headers['access-control-allow-credentials']).to.equal(undefined);
    expect(simple.headers.vary).to.equal('Origin');
    const preflight = await raw(app, 'OPTIONS', '/api/notes', {
      origin: 'https://anywhere.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers['access-control-allow-origin']).to.equal('*');
    expect(preflight.headers['access-control-allow-methods']).to.equal('GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS');
    expect(preflight.headers['access-control-allow-headers']).to.equal('Content-Type,Authorization,Origin,Accept');
    expect(preflight.headers['access-control-max-age']).to.equal('31536000');
    const sameOrigin = await raw(app, 'GET', '/api/notes');
    expect(sameOrigin.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('serves the app favicon at /favicon.ico', async () => {
    const response = await app.get('/favicon.ico');
    expect(response.status).to.equal(200);
    expect(response.text).to.equal('icon-bytes');
    expect(response.headers.get('content-type')).to.equal('image/vnd.microsoft.icon');
    expect(response.headers.get('cache-control')).to.equal('public, max-age=86400');
  });

  it('has no public folder: a path that is not a route is a 404 envelope', async () => {
    const response = await app.get('/hello.txt');
    expect(response.status).to.equal(404);
    expect(response.body).to.deep.equal(NOT_FOUND);
  });
});

const STAMP_MIDDLEWARE = `
let calls = 0;
export default (config: any, { strapi, app }: any) => async (ctx: any, next: () => Promise<void>) => {
  calls += 1;
  ctx.set('x-stamp', \`\${config.label}:\${calls}:\${strapi === app && typeof app.service === 'function'}\`);
  await next();
};
`;

function customStack(uploadDir: string): string {
  return `
export default [
  'strapi::errors',
  { name: 'strapi::security', config: { frameguard: { action: 'sameorigin' }, contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'self'"], imgSrc: ["'self'", 'https://cdn.example'] } } } },
  { name: 'tessera::cors', config: { origin: ['https://good.example', 'https://other.example'], credentials: true, headers: ['Content-Type', 'Authorization', 'X-Custom'] } },
  { name: 'strapi::poweredBy', config: { poweredBy: 'Acme CMS' } },
  'strapi::logger',
  'strapi::query',
  { name: 'strapi::body', config: { jsonLimit: '2kb', formLimit: '1kb', formidable: { maxFileSize: 4096, uploadDir: ${JSON.stringify(uploadDir)} } } },
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
  { name: 'global::stamp', config: { label: 'global' } },
  'api::note.tag',
  { resolve: './src/extra/order', config: { header: 'x-order' } },
];
`;
}

const CUSTOM_FILES = {
  ...NOTE_FILES,
  'src/middlewares/stamp.ts': STAMP_MIDDLEWARE,
  'src/api/note/middlewares/tag.ts': `export default () => async (ctx: any, next: () => Promise<void>) => { ctx.set('x-tag', 'note'); await next(); };\n`,
  'src/extra/order.js': `module.exports = (config) => async (ctx, next) => { ctx.set(config.header, ctx.response.get('x-stamp') ? 'after-stamp' : 'before-stamp'); await next(); };\n`,
  'src/api/probe/routes/probe.ts': `
import fs from 'node:fs';
export default {
  routes: [{
    method: 'POST',
    path: '/probe',
    config: { auth: false },
    handler: (ctx: any) => {
      const files = Object.entries(ctx.request.files ?? {}).map(([field, value]: [string, any]) => {
        const file = Array.isArray(value) ? value[0] : value;
        return { field, name: file.originalFilename, size: file.size, onDisk: fs.existsSync(file.filepath) };
      });
      return { fields: ctx.request.body, files };
    },
  }],
};
`,
};

eachDatabase('global middlewares: config/middlewares.ts', (dialect) => {
  let app: TestApp;
  let uploadDir: string;
  before(async () => {
    uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-uploads-'));
    app = await startApp({ dialect, files: { ...CUSTOM_FILES, 'config/middlewares.ts': customStack(uploadDir) } });
  });
  after(async () => {
    await app.stop();
    fs.rmSync(uploadDir, { recursive: true, force: true });
  });

  it('runs the app’s own global middlewares, in order, on every request — answers, 404s, 405s, 400s', async () => {
    const answers = [
      await app.get('/api/notes'),
      await app.get('/api/nope'),
      await app.request('PATCH', '/api/notes', { body: { data: {} } }),
      await app.get('/api/notes?filters[nope][$eq]=1'),
    ];
    expect(answers.map((response) => response.status)).to.deep.equal([200, 404, 405, 400]);
    const stamps = answers.map((response) => response.headers.get('x-stamp'));
    const counts = stamps.map((stamp) => Number(stamp!.split(':')[1]));
    expect(stamps.map((stamp) => stamp!.replace(/:\d+:/, ':n:'))).to.deep.equal(Array(4).fill('global:n:true'));
    expect(counts.slice(1).map((count, index) => count - counts[index])).to.deep.equal([1, 1, 1]);
    for (const response of answers) {
      expect(response.headers.get('x-tag')).to.equal('note');
      expect(response.headers.get('x-order')).to.equal('after-stamp');
      expect(response.headers.get('x-powered-by')).to.equal('Acme CMS');
    }
    expect({ ...answers[1].body, error: { ...answers[1].body.error, details: {} } }).to.deep.equal(NOT_FOUND);
    expect(answers[1].body.error.details.hint).to.match(/closest content-API route is GET \/api\/notes/);
  });

  it('configures the built-ins: security headers, CORS origin list with credentials', async () => {
    const response = await raw(app, 'GET', '/api/notes', { origin: 'https://good.example' });
    expect(response.headers['x-frame-options']).to.equal('SAMEORIGIN');
    expect(response.headers['content-security-policy']).to.equal("default-src 'self'; img-src 'self' https://cdn.example; frame-ancestors 'self'");
    expect(response.headers['access-control-allow-origin']).to.equal('https://good.example');
    expect(response.headers['access-control-allow-credentials']).to.equal('true');
    const other = await raw(app, 'GET', '/api/notes', { origin: 'https://other.example' });
    expect(other.headers['access-control-allow-origin']).to.equal('https://other.example');
    const stranger = await raw(app, 'GET', '/api/notes', { origin: 'https://evil.example' });
    expect(stranger.status).to.equal(200);
    expect(stranger.headers['access-control-allow-origin']).to.equal(undefined);
    expect(stranger.headers['access-control-allow-credentials']).to.equal(undefined);

    const preflight = await raw(app, 'OPTIONS', '/api/notes', { origin: 'https://good.example', 'access-control-request-method': 'PUT' });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers['access-control-allow-origin']).to.equal('https://good.example');
    expect(preflight.headers['access-control-allow-headers']).to.equal('Content-Type,Authorization,X-Custom');
    const refused = await raw(app, 'OPTIONS', '/api/notes', { origin: 'https://evil.example', 'access-control-request-method': 'PUT' });
    expect(refused.headers['access-control-allow-origin']).to.equal(undefined);
    expect(refused.headers['access-control-allow-methods']).to.equal(undefined);
  });

  it('parses multipart bodies; temporary files are deleted once the request is over', async () => {
    const form = new FormData();
    form.append('caption', 'a cat');
    form.append('file', new Blob(['x'.repeat(3000)], { type: 'text/plain' }), 'cat.txt');
    const response = await fetch(`${app.url}/api/probe`, { method: 'POST', body: form });
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal({ fields: { caption: 'a cat' }, files: [{ field: 'file', name: 'cat.txt', size: 3000, onDisk: true }] });
    expect(fs.readdirSync(uploadDir)).to.deep.equal([]);
  });

  it('answers 413 in the envelope for a multipart file over formidable.maxFileSize, and keeps no temporary file', async () => {
    const form = new FormData();
    form.append('file', new Blob(['x'.repeat(5000)], { type: 'application/octet-stream' }), 'big.bin');
    const response = await fetch(`${app.url}/api/probe`, { method: 'POST', body: form });
    expect(response.status).to.equal(413);
    expect(await response.json()).to.deep.equal(TOO_LARGE);
    expect(fs.readdirSync(uploadDir)).to.deep.equal([]);
  });

  it('answers 413 for multipart fields over formLimit, a form over formLimit and JSON over jsonLimit', async () => {
    const form = new FormData();
    form.append('caption', 'y'.repeat(1500));
    const multipart = await fetch(`${app.url}/api/probe`, { method: 'POST', body: form });
    expect(multipart.status).to.equal(413);
    expect(await multipart.json()).to.deep.equal(TOO_LARGE);
    const urlencoded = await app.request('POST', '/api/probe', { rawBody: `caption=${'z'.repeat(1500)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(urlencoded.status).to.equal(413);
    expect(urlencoded.body).to.deep.equal(TOO_LARGE);
    const json = await app.request('POST', '/api/probe', { rawBody: JSON.stringify({ data: 'j'.repeat(2500) }) });
    expect(json.status).to.equal(413);
    expect(json.body).to.deep.equal(TOO_LARGE);
    const small = await app.request('POST', '/api/probe', { rawBody: JSON.stringify({ data: 'j'.repeat(1500) }) });
    expect(small.status).to.equal(200);
    expect(small.body.fields.data).to.have.length(1500);
  });

  it('answers a malformed multipart body with a 400 envelope', async () => {
    const response = await app.request('POST', '/api/probe', {
      rawBody: '--nope\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue',
      headers: { 'content-type': 'multipart/form-data; boundary=other' },
    });
    expect(response.status).to.equal(400);
    expect(response.body).to.deep.equal(envelope(400, 'ValidationError', 'Invalid multipart body'));
  });

  it('answers a part header formidable cannot read with a 400 at once, and keeps no temporary folder (the request hung for ever)', async () => {
    const parts = [
      'Content-Disposition: form-data; name="file"; filename="a\r\nb.png"\r\nContent-Type: image/png', // a raw line break in a file name
      'Content-Disposition: form-data; name="caption"\r\nContent-MD5: x', // a digit in a header name
      'X Header: y\r\nContent-Disposition: form-data; name="caption"',
    ];
    for (const headers of parts) {
      const response = await fetch(`${app.url}/api/probe`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=XB' },
        body: `--XB\r\n${headers}\r\n\r\nvalue\r\n--XB--\r\n`,
        signal: AbortSignal.timeout(5000),
      });
      expect(response.status, headers).to.equal(400);
      expect(await response.json()).to.deep.equal(envelope(400, 'ValidationError', 'Invalid multipart body'));
    }
    expect(fs.readdirSync(uploadDir)).to.deep.equal([]);
  });
});

describe('global middlewares: a stack without strapi::errors, CORS origins from a function [sqlite]', () => {
  let app: TestApp;
  before(async () => {
    const stack = `export default [
  { name: 'strapi::cors', config: { origin: (ctx: any) => (ctx.get('x-tenant') === 'a' ? ['https://a.example'] : 'https://b.example, https://c.example') } },
  'strapi::body',
];
`;
    app = await startApp({ dialect: 'sqlite', files: { ...NOTE_FILES, 'config/middlewares.ts': stack } });
  });
  after(() => app.stop());

  it('evaluates the origin function per request (a list or a comma-separated string)', async () => {
    const tenantA = await raw(app, 'GET', '/api/notes', { origin: 'https://a.example', 'x-tenant': 'a' });
    expect(tenantA.headers['access-control-allow-origin']).to.equal('https://a.example');
    const notForA = await raw(app, 'GET', '/api/notes', { origin: 'https://c.example', 'x-tenant': 'a' });
    expect(notForA.headers['access-control-allow-origin']).to.equal(undefined);
    const others = await raw(app, 'GET', '/api/notes', { origin: 'https://c.example' });
    expect(others.headers['access-control-allow-origin']).to.equal('https://c.example');
  });

  it('still answers errors in the envelope, and sets only the headers of the listed built-ins', async () => {
    const response = await app.get('/api/nope');
    expect(response.status).to.equal(404);
    expect({ ...response.body, error: { ...response.body.error, details: {} } }).to.deep.equal(NOT_FOUND);
    expect(response.headers.get('x-powered-by')).to.equal(null);
    expect(response.headers.get('content-security-policy')).to.equal(null);
  });
});

describe('global middlewares: strapi::logger and options Tessera does not have [sqlite]', () => {
  let app: TestApp;
  const warnings: string[] = [];
  before(async () => {
    const stack = `export default ['strapi::errors', { name: 'strapi::security', config: { hsts: { maxAge: 1 }, xssFilter: true } }, 'strapi::logger', 'strapi::body'];\n`;
    const level = process.env.TESSERA_LOG_LEVEL;
    const warn = console.warn;
    process.env.TESSERA_LOG_LEVEL = 'http';
    console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
    try {
      app = await startApp({ dialect: 'sqlite', files: { ...NOTE_FILES, 'config/middlewares.ts': stack } });
    } finally {
      console.warn = warn;
      if (level === undefined) delete process.env.TESSERA_LOG_LEVEL;
      else process.env.TESSERA_LOG_LEVEL = level;
    }
  });
  after(() => app.stop());

  it('warns at boot about the options it ignores', () => {
    expect(warnings.filter((line) => line.includes('strapi::security'))).to.have.length(1);
    expect(warnings.join('\n')).to.match(/config\/middlewares\.ts: strapi::security ignores hsts, xssFilter \(not supported by Tessera\)/);
  });

  it('logs one line per request with the status the client gets, errors included', async () => {
    const lines: string[] = [];
    const print = console.log;
    console.log = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
    try {
      await app.get('/api/notes');
      await app.get('/api/nope');
      await app.get('/api/notes?filters[nope][$eq]=1');
    } finally {
      console.log = print;
    }
    expect(lines.map((line) => line.replace(/ [\d.]+ms$/, ''))).to.deep.equal([
      '[tessera] GET /api/notes 200',
      '[tessera] GET /api/nope 404',
      '[tessera] GET /api/notes?filters[nope][$eq]=1 400',
    ]);
  });
});

describe('global middlewares: a bad config/middlewares.ts stops the boot [sqlite]', () => {
  for (const [title, stack, expected] of [
    ['an unknown global middleware', `['strapi::errors', 'global::missing']`, /config\/middlewares\.ts: unknown middleware "global::missing"/],
    ['an unknown built-in', `['strapi::errors', 'strapi::compression']`, /config\/middlewares\.ts: unknown built-in middleware "strapi::compression"/],
    ['a value that is not a list', `{ errors: true }`, /config\/middlewares\.ts: must export a list of middlewares/],
    ['a bad body limit', `[{ name: 'strapi::body', config: { jsonLimit: 'lots' } }]`, /config\/middlewares\.ts: strapi::body: jsonLimit must be a size/],
  ] as const) {
    it(`${title}`, async () => {
      const error = await bootError({ dialect: 'sqlite', files: { ...NOTE_FILES, 'config/middlewares.ts': `export default ${stack};\n` } });
      expect(error).to.be.instanceOf(ConfigurationError);
      expect(error.message).to.match(expected);
    });
  }
});
