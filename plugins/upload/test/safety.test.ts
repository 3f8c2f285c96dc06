/**
 * The safety rules, each attacked over real HTTP: disguised HTML, SVG with
 * a script, traversal and control characters in names, traversal when
 * serving, an oversized body (stopped while streaming, memory bounded, temp
 * files removed), a declared oversize refused before reading, allowed and
 * denied types. Both databases.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { eachDatabase } from '@tessera/testing';
import { file, multipart, png, startUploadApp, ownTempDir, storedFiles, type UploadApp } from './fixture';

const SVG_WITH_SCRIPT = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>';
const HTML = '<!DOCTYPE html><html><body><script>fetch("/api/upload/files")</script></body></html>';

eachDatabase('upload: safety', (dialect) => {
  let ctx: UploadApp;
  before(async () => {
    ctx = await startUploadApp(dialect, { sizeLimit: 1024 * 1024 });
  });
  after(() => ctx?.app.stop());
  const temp = ownTempDir();

  const upload = (parts: Parameters<typeof multipart>[2]) => multipart(ctx.app, '/api/upload', parts, ctx.token);
  const rowCount = async () => Number((await ctx.app.app.db.sql.all(ctx.app.app.db.sql.knex('files').count({ n: '*' })))[0].n);

  it('an HTML page named photo.png (sent as image/png) is stored as text/html .html and served as an attachment', async () => {
    const [stored] = (await upload([file(HTML, 'photo.png', 'image/png')])).body;
    expect(stored).to.deep.include({ mime: 'text/html', ext: '.html', name: 'photo.png' });
    expect(stored.url).to.equal(`/uploads/${stored.hash}.html`);
    const served = await fetch(`${ctx.app.url}${stored.url}`);
    expect(served.status).to.equal(200);
    expect(served.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(served.headers.get('content-disposition')).to.equal('attachment');
    expect(served.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(served.headers.get('content-security-policy')).to.equal("default-src 'none'; sandbox");
  });

  it('an SVG with a script is image/svg+xml, measured but not rasterised, served as an attachment', async () => {
    const [stored] = (await upload([file(SVG_WITH_SCRIPT, 'logo.svg', 'image/svg+xml')])).body;
    // Width and height from its header, as Strapi 4.26.2 stores them; no formats.
    expect(stored).to.deep.include({ mime: 'image/svg+xml', ext: '.svg', width: 10, height: 10, formats: null });
    const served = await fetch(`${ctx.app.url}${stored.url}`);
    expect(served.headers.get('content-type')).to.equal('image/svg+xml');
    expect(served.headers.get('content-disposition')).to.equal('attachment');
    expect(served.headers.get('x-content-type-options')).to.equal('nosniff');
    const [xml] = (await upload([file('<?xml version="1.0"?><feed/>', 'data.txt', 'text/plain')])).body;
    expect(xml).to.deep.include({ mime: 'application/xml', ext: '.xml' });
  });

  it('a PNG sent as text/plain with a .txt name is an image; passive files are served inline with nosniff', async () => {
    const [stored] = (await upload([file(await png(50, 40), 'notes.txt', 'text/plain')])).body;
    expect(stored).to.deep.include({ mime: 'image/png', ext: '.png', width: 50, height: 40 });
    const served = await fetch(`${ctx.app.url}${stored.url}`);
    expect(served.headers.get('content-type')).to.equal('image/png');
    expect(served.headers.get('content-disposition')).to.equal(null);
    expect(served.headers.get('x-content-type-options')).to.equal('nosniff');
    const [binary] = (await upload([file(Buffer.from([0, 1, 2, 3, 255, 0, 7]), 'run.exe.html', 'text/html')])).body;
    expect(binary).to.deep.include({ mime: 'application/octet-stream', ext: '.bin' });
    expect((await fetch(`${ctx.app.url}${binary.url}`)).headers.get('content-disposition')).to.equal('attachment');
  });

  it('path separators, NUL and control characters in names are neutralised; long names are cut; the stored name is the hash', async () => {
    const before = fs.readdirSync(ctx.app.dir);
    const [traversal] = (await upload([file('x', '../../../../etc/passwd.txt')])).body;
    expect(traversal.name).to.equal('passwd.txt');
    expect(traversal.hash).to.match(/^passwd_[0-9a-f]{10}$/);
    const [windows] = (await upload([file('x', '..\\..\\evil.txt')])).body;
    expect(windows.name).to.equal('evil.txt');
    const [control] = (await upload([file('x', 'a\u0000b\u0007c\u001b.txt')])).body;
    expect(control.name).to.equal('abc.txt');
    const [info] = (await upload([file('x', 'x.txt'), { name: 'fileInfo', value: JSON.stringify({ name: '../../config/server.ts' }) }])).body;
    expect(info).to.deep.include({ name: 'server.ts', ext: '.txt' });
    expect(info.hash).to.match(/^server_[0-9a-f]{10}$/);
    const [long] = (await upload([file('x', `${'n'.repeat(400)}.txt`)])).body;
    expect(Array.from(long.name as string)).to.have.length(255);
    expect(long.hash.length).to.be.at.most(111);
    for (const stored of [traversal, windows, control, info, long]) {
      expect(fs.existsSync(path.join(ctx.uploadsDir, `${stored.hash}${stored.ext}`))).to.equal(true);
    }
    expect(fs.readdirSync(ctx.app.dir)).to.deep.equal(before);
  });

  it('/uploads serves only plain stored names: traversal and temp files are 404', async () => {
    fs.writeFileSync(path.join(ctx.uploadsDir, '.tmp-secret'), 'partial');
    for (const attempt of ['/uploads/..%2F..%2Fconfig%2Fplugins.ts', '/uploads/%2e%2e%2f.tmp%2fdata.db', '/uploads/.tmp-secret', '/uploads/..', '/uploads/a%00.txt', '/uploads/../package.json']) {
      const response = await fetch(`${ctx.app.url}${attempt}`);
      expect(response.status, attempt).to.equal(404);
      expect(await response.text()).not.to.include('partial');
    }
  });

  it('an oversized body is refused with 413 while streaming: memory stays bounded, nothing stored, temp files removed', async () => {
    const tempBefore = temp.uploadDirs();
    const filesBefore = storedFiles(ctx.uploadsDir);
    const rowsBefore = await rowCount();
    const boundary = '----tessera-oversize';
    const chunk = Buffer.alloc(256 * 1024, 97);
    const total = 64 * 1024 * 1024;
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`));
      },
      pull(controller) {
        if (sent >= total) {
          controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
          controller.close();
          return;
        }
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    let status: number;
    let answer: any;
    try {
      const response = await fetch(`${ctx.app.url}/api/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ctx.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit);
      status = response.status;
      answer = await response.json();
    } finally {
      clearInterval(sampler);
    }
    expect(status).to.equal(413);
    expect(answer.error).to.deep.include({ status: 413, name: 'PayloadTooLargeError' });
    // The answer came long before the 64 MB were sent, and the server never held them.
    expect(sent).to.be.below(total / 2);
    expect(peak - baseline).to.be.below(32 * 1024 * 1024);
    expect(storedFiles(ctx.uploadsDir)).to.deep.equal(filesBefore);
    expect(await rowCount()).to.equal(rowsBefore);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([...temp.uploadDirs()].filter((name) => !tempBefore.has(name))).to.deep.equal([]);
  });

  it('a declared Content-Length above the limit is refused before reading', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 98);
    const response = await upload([file(big, 'big.txt')]);
    expect(response.status).to.equal(413);
    expect(response.body).to.deep.equal({
      data: null,
      error: { status: 413, name: 'PayloadTooLargeError', message: 'The files exceed the upload size limit (1048576 bytes)', details: {} },
    });
  });

  it('malformed multipart bodies are 400s, never 500s nor a hang, and leave no temp files', async () => {
    const tempBefore = temp.uploadDirs();
    const send = (contentType: string, body: string) =>
      fetch(`${ctx.app.url}/api/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ctx.token}`, 'content-type': contentType },
        body,
        signal: AbortSignal.timeout(5000),
      });
    const cases: Array<[string, string]> = [
      ['multipart/form-data', 'no boundary at all'],
      ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nunterminated'],
      ['multipart/form-data; boundary=xyz', ''],
      // A part header formidable cannot read (a raw line break in the file name): the request hung for ever.
      ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="files"; filename="a\r\nb.png"\r\n\r\nbytes\r\n--xyz--\r\n'],
    ];
    for (const [contentType, body] of cases) {
      const response = await send(contentType, body);
      expect(response.status, body).to.equal(400);
      expect(((await response.json()) as { error: { name: string } }).error.name).to.equal('ValidationError');
    }
    const unreadable = await send('multipart/form-data; boundary=xyz', '--xyz\r\nContent-MD5: x\r\n\r\nbytes\r\n--xyz--\r\n');
    expect(await unreadable.json()).to.deep.equal({
      data: null,
      error: { status: 400, name: 'ValidationError', message: "Invalid multipart body: a part's headers could not be read", details: {} },
    });
    expect([...temp.uploadDirs()].filter((name) => !tempBefore.has(name))).to.deep.equal([]);
    const badId = await multipart(ctx.app, '/api/upload?id=abc', [{ name: 'fileInfo', value: '{}' }], ctx.token);
    expect(badId.status).to.equal(404);
  });

  it('a 400 after parsing (bad fileInfo) leaves no temp files', async () => {
    const tempBefore = temp.uploadDirs();
    const response = await upload([file('x', 'x.txt'), { name: 'fileInfo', value: '{"url":"http://evil.example/x"}' }]);
    expect(response.status).to.equal(400);
    expect([...temp.uploadDirs()].filter((name) => !tempBefore.has(name))).to.deep.equal([]);
  });

  it('more than 100 files are a 400 and store nothing (files still landing in the temp folder made its removal a 500)', async () => {
    const tempBefore = temp.uploadDirs();
    const rowsBefore = await rowCount();
    // Files of some size, so that writes are still under way when the 101st begins (a race: three tries).
    const image = await png(32, 32);
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await upload(Array.from({ length: 250 }, (_, index) => file(image, `f${index}.png`, 'image/png')));
      expect(response.body).to.deep.equal({
        data: null,
        error: { status: 400, name: 'ValidationError', message: 'Invalid multipart body: at most 100 files per request', details: {} },
      });
    }
    expect(await rowCount()).to.equal(rowsBefore);
    expect([...temp.uploadDirs()].filter((name) => !tempBefore.has(name))).to.deep.equal([]);
    expect((await upload(Array.from({ length: 100 }, (_, index) => file(`file ${index}`, `f${index}.txt`, 'text/plain')))).status).to.equal(200);
  });

  it('more than 100 fields are a 413 that says so (it read "The files exceed the upload size limit")', async () => {
    const fields = Array.from({ length: 101 }, (_, index) => ({ name: `field${index}`, value: 'v' }));
    const response = await upload([file('x', 'x.txt'), ...fields]);
    expect(response.body).to.deep.equal({
      data: null,
      error: { status: 413, name: 'PayloadTooLargeError', message: 'Payload Too Large: at most 100 fields of 1048576 bytes in all', details: {} },
    });
  });
});

eachDatabase('upload: allowed and denied types', (dialect) => {
  it('security.allowedTypes and security.deniedTypes apply to the sniffed type', async () => {
    const ctx = await startUploadApp(dialect, { security: { allowedTypes: ['image/*', 'text/plain'], deniedTypes: ['image/gif'] } });
    try {
      const ok = await multipart(ctx.app, '/api/upload', [file(await png(10, 10), 'a.png', 'image/png')], ctx.token);
      expect(ok.status).to.equal(200);
      const html = await multipart(ctx.app, '/api/upload', [file(HTML, 'disguised.txt', 'text/plain')], ctx.token);
      expect(html.status).to.equal(400);
      expect(html.body.error).to.deep.include({ name: 'ValidationError', message: 'File type text/html is not allowed' });
      const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
      const denied = await multipart(ctx.app, '/api/upload', [file(gif, 'a.png', 'image/png')], ctx.token);
      expect(denied.status).to.equal(400);
      expect(denied.body.error.message).to.equal('File type image/gif is not allowed');
      expect(storedFiles(ctx.uploadsDir)).to.have.length(1);
    } finally {
      await ctx.app.stop();
    }
  });

  it('an invalid upload config stops the boot with a message naming the key', async () => {
    let error: Error | undefined;
    try {
      const ctx = await startUploadApp(dialect, { sizeLimit: -1 });
      await ctx.app.stop();
    } catch (caught) {
      error = caught as Error;
    }
    expect(error?.message).to.include('sizeLimit must be a positive integer');
  });
});
