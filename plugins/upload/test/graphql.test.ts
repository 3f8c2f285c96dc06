/**
 * Upload's GraphQL mutations over real multipart HTTP requests (the GraphQL
 * multipart request spec), on both databases: the schema's shapes against
 * Strapi's, upload with info, multipleUpload, ref/refId/field linking read
 * back over REST, updateFileInfo, removeFile (bytes and links gone),
 * permissions, sniffing, the size limit while streaming (no temp files
 * left), and every malformed request a 400.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { buildClientSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema } from 'graphql';
import graphqlPlugin from '@tessera/plugin-graphql';
import { PayloadTooLargeError } from '@tessera/errors';
import { SHARED_REFERENCE, eachDatabase, requireReference } from '@tessera/testing';
import type { UploadService } from '../src';
import { png, startUploadApp, ownTempDir, storedFiles, type UploadApp } from './fixture';

const SIZE_LIMIT = 256 * 1024;
const HTML = '<!DOCTYPE html><html><body><script>fetch("/api/upload/files")</script></body></html>';
const FILE_FIELDS = 'name alternativeText caption width height formats hash ext mime size url previewUrl provider provider_metadata createdAt updatedAt';
const UPLOAD = `mutation ($file: Upload!, $info: FileInfoInput, $ref: String, $refId: ID, $field: String) {
  upload(file: $file, info: $info, ref: $ref, refId: $refId, field: $field) { data { id attributes { ${FILE_FIELDS} } } }
}`;
const MULTIPLE = `mutation ($files: [Upload]!, $ref: String, $refId: ID, $field: String) {
  multipleUpload(files: $files, ref: $ref, refId: $refId, field: $field) { data { id attributes { name mime ext size } } }
}`;
const PREFLIGHT = { 'apollo-require-preflight': 'true' };
const FORBIDDEN = { message: 'Forbidden access', extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' } };

interface FilePart {
  field: string;
  content: Buffer | string;
  filename: string;
  type?: string;
}

interface MultipartRequest {
  operations: unknown;
  map: unknown;
  files: FilePart[];
  token?: string;
  headers?: Record<string, string>;
}

/** `upload` selects these keys; the REST file object has them too (plus `id`). */
function attributesOf(file: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(FILE_FIELDS.split(' ').map((key) => [key, file[key]]));
}

eachDatabase('upload: GraphQL mutations', (dialect) => {
  let ctx: UploadApp;
  before(async () => {
    ctx = await startUploadApp(dialect, { sizeLimit: SIZE_LIMIT }, [graphqlPlugin]);
  });
  after(() => ctx?.app.stop());
  const temp = ownTempDir();

  /** operations, map, then the files: the order the spec requires. Strings for operations/map are sent as they are. */
  async function send(request: MultipartRequest, target: UploadApp = ctx): Promise<{ status: number; body: any }> {
    const form = new FormData();
    const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
    form.append('operations', text(request.operations));
    form.append('map', text(request.map));
    for (const part of request.files) form.append(part.field, new Blob([part.content], { type: part.type ?? 'application/octet-stream' }), part.filename);
    const headers: Record<string, string> = { ...PREFLIGHT, ...(request.headers ?? {}) };
    const token = request.token === undefined ? target.token : request.token;
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(`${target.app.url}/graphql`, { method: 'POST', body: form, headers });
    const body = await response.text();
    return { status: response.status, body: body ? JSON.parse(body) : undefined };
  }

  /** One file as `$file`. */
  const uploadOne = (content: Buffer | string, filename: string, variables: Record<string, unknown> = {}, options: Partial<MultipartRequest> = {}) =>
    send({
      operations: { query: UPLOAD, variables: { file: null, ...variables } },
      map: { 0: ['variables.file'] },
      files: [{ field: '0', content, filename, type: 'text/plain' }],
      ...options,
    });

  const rowCount = async () => ctx.app.app.db.query('plugin::upload.file').count();
  const restFile = async (id: string | number) => ctx.app.get(`/api/upload/files/${id}`, { token: ctx.token });
  const createPost = async (title: string) => (await ctx.app.post('/api/posts', { data: { title } }, { token: ctx.token })).body.data.id as number;

  it('declares the mutations and FileInfoInput exactly as Strapi v4 does', async function () {
    requireReference(this, 'strapi4-graphql-schema.graphql');
    const reference = fs.readFileSync(path.join(SHARED_REFERENCE, 'strapi4-graphql-schema.graphql'), 'utf8').split('\n');
    const response = await ctx.app.post('/graphql', { query: getIntrospectionQuery() });
    const ours = printSchema(lexicographicSortSchema(buildClientSchema(response.body.data))).split('\n');
    for (const name of ['upload', 'multipleUpload', 'updateFileInfo', 'removeFile']) {
      const line = reference.find((item) => item.startsWith(`  ${name}(`));
      expect(line, name).to.be.a('string');
      expect(ours, name).to.include(line);
    }
    const block = (lines: string[]) => lines.slice(lines.indexOf('input FileInfoInput {'), lines.indexOf('input FileInfoInput {') + 5);
    expect(block(ours)).to.deep.equal(block(reference));
    expect(block(ours)).to.deep.equal(['input FileInfoInput {', '  alternativeText: String', '  caption: String', '  name: String', '}']);
  });

  it('upload: one file with info; the answer is the stored file, and the bytes are stored under its hash', async () => {
    const response = await uploadOne('hello graphql', 'notes.txt', { info: { name: 'My notes', alternativeText: 'alt', caption: 'cap' } });
    expect(response.status).to.equal(200);
    expect(response.body.errors).to.equal(undefined);
    const { id, attributes } = response.body.data.upload.data;
    expect(attributes.hash).to.match(/^My_notes_[0-9a-f]{10}$/);
    expect(attributes).to.deep.include({
      name: 'My notes', alternativeText: 'alt', caption: 'cap', width: null, height: null, formats: null,
      ext: '.txt', mime: 'text/plain', size: 0.01, url: `/uploads/${attributes.hash}.txt`, previewUrl: null, provider: 'local', provider_metadata: null,
    });
    expect(fs.readFileSync(path.join(ctx.uploadsDir, `${attributes.hash}.txt`), 'utf8')).to.equal('hello graphql');
    const rest = await restFile(id);
    expect(rest.status).to.equal(200);
    expect(String(rest.body.id)).to.equal(id);
    expect(attributesOf(rest.body)).to.deep.equal(attributes);
  });

  it('upload: info can set only name, alternativeText and caption (url is not in FileInfoInput)', async () => {
    const before = storedFiles(ctx.uploadsDir);
    const response = await uploadOne('x', 'x.txt', { info: { url: 'https://evil.example/x.html' } });
    expect(response.status).to.equal(400);
    expect(response.body.errors).to.have.length(1);
    expect(response.body.errors[0].message).to.equal('Variable "$info" got invalid value { url: "https://evil.example/x.html" }; Field "url" is not defined by type "FileInfoInput".');
    expect(response.body.errors[0].extensions.code).to.equal('BAD_USER_INPUT');
    const traversal = await uploadOne('x', 'x.txt', { info: { name: '../../config/server.ts' } });
    expect(traversal.body.data.upload.data.attributes).to.deep.include({ name: 'server.ts', ext: '.txt' });
    expect(storedFiles(ctx.uploadsDir).filter((name) => !before.includes(name))).to.deep.equal([`${traversal.body.data.upload.data.attributes.hash}.txt`]);
  });

  it('multipleUpload: two files, in order, each stored', async () => {
    const response = await send({
      operations: { query: MULTIPLE, variables: { files: [null, null] } },
      map: { a: ['variables.files.0'], b: ['variables.files.1'] },
      files: [
        { field: 'a', content: 'first file', filename: 'first.txt' },
        { field: 'b', content: '# second', filename: 'second.md' },
      ],
    });
    expect(response.status).to.equal(200);
    expect(response.body.errors).to.equal(undefined);
    const results = response.body.data.multipleUpload;
    expect(results.map((result: any) => result.data.attributes)).to.deep.equal([
      { name: 'first.txt', mime: 'text/plain', ext: '.txt', size: 0.01 },
      { name: 'second.md', mime: 'text/markdown', ext: '.md', size: 0.01 },
    ]);
    expect(Number(results[1].data.id)).to.equal(Number(results[0].data.id) + 1);
    const stored = await Promise.all(results.map(async (result: any) => (await restFile(result.data.id)).body));
    expect(fs.readFileSync(path.join(ctx.uploadsDir, `${stored[0].hash}.txt`), 'utf8')).to.equal('first file');
    expect(fs.readFileSync(path.join(ctx.uploadsDir, `${stored[1].hash}.md`), 'utf8')).to.equal('# second');
  });

  it('ref/refId/field link the new files to the entry: read back over REST populate', async () => {
    const post = await createPost('linked by graphql');
    const link = { ref: 'api::post.post', refId: String(post) };
    const cover = await uploadOne('cover bytes', 'cover.txt', { ...link, field: 'cover' });
    expect(cover.body.errors).to.equal(undefined);
    const gallery = await send({
      operations: { query: MULTIPLE, variables: { files: [null, null], ...link, field: 'gallery' } },
      map: { 0: ['variables.files.0'], 1: ['variables.files.1'] },
      files: [
        { field: '0', content: 'g1', filename: 'g1.txt' },
        { field: '1', content: 'g2', filename: 'g2.txt' },
      ],
    });
    expect(gallery.body.errors).to.equal(undefined);
    const read = await ctx.app.get(`/api/posts/${post}?populate[cover][fields][0]=name&populate[gallery][fields][0]=name&fields[0]=title`);
    expect(read.status).to.equal(200);
    expect(read.body.data.attributes).to.deep.equal({
      title: 'linked by graphql',
      cover: { data: { id: Number(cover.body.data.upload.data.id), attributes: { name: 'cover.txt' } } },
      gallery: { data: gallery.body.data.multipleUpload.map((result: any) => ({ id: Number(result.data.id), attributes: { name: result.data.attributes.name } })) },
    });
  });

  it('a bad ref is refused before any byte is stored, as over REST', async () => {
    const before = storedFiles(ctx.uploadsDir);
    const rows = await rowCount();
    const response = await uploadOne('x', 'x.txt', { ref: 'api::post.post', refId: '999999', field: 'cover' });
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      errors: [{ message: 'refId: api::post.post has no entry 999999', extensions: { error: { name: 'ValidationError', message: 'refId: api::post.post has no entry 999999', details: { errors: [{ path: ['refId'], message: 'refId: api::post.post has no entry 999999', name: 'ValidationError' }] } }, code: 'BAD_USER_INPUT' } }],
      data: null,
    });
    expect(storedFiles(ctx.uploadsDir)).to.deep.equal(before);
    expect(await rowCount()).to.equal(rows);
  });

  it('updateFileInfo changes name, alternativeText and caption only; the bytes stay', async () => {
    const created = (await uploadOne('keep me', 'keep.txt')).body.data.upload.data;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const response = await ctx.app.post(
      '/graphql',
      {
        query: `mutation ($id: ID!, $info: FileInfoInput) { updateFileInfo(id: $id, info: $info) { data { id attributes { ${FILE_FIELDS} } } } }`,
        variables: { id: created.id, info: { name: 'renamed.txt', alternativeText: 'new alt', caption: null } },
      },
      { token: ctx.token },
    );
    expect(response.status).to.equal(200);
    const updated = response.body.data.updateFileInfo.data;
    expect(updated.id).to.equal(created.id);
    expect(updated.attributes).to.deep.equal({ ...created.attributes, name: 'renamed.txt', alternativeText: 'new alt', caption: null, updatedAt: updated.attributes.updatedAt });
    expect(Date.parse(updated.attributes.updatedAt)).to.be.greaterThan(Date.parse(created.attributes.updatedAt));
    expect(fs.readFileSync(path.join(ctx.uploadsDir, `${created.attributes.hash}.txt`), 'utf8')).to.equal('keep me');
    expect(attributesOf((await restFile(created.id)).body)).to.deep.equal(updated.attributes);

    const missing = await ctx.app.post('/graphql', { query: 'mutation { updateFileInfo(id: "999999", info: { caption: "x" }) { data { id } } }' }, { token: ctx.token });
    expect(missing.status).to.equal(200);
    expect(missing.body).to.deep.equal({
      errors: [{ message: 'file.notFound', extensions: { error: { name: 'NotFoundError', message: 'file.notFound', details: {} }, code: 'STRAPI_NOT_FOUND_ERROR' } }],
      data: null,
    });
    const literal = await ctx.app.post('/graphql', { query: `mutation { updateFileInfo(id: "${created.id}", info: { hash: "evil" }) { data { id } } }` }, { token: ctx.token });
    expect(literal.status).to.equal(400);
    expect(literal.body.errors[0].extensions.code).to.equal('GRAPHQL_VALIDATION_FAILED');
  });

  it('removeFile: answers the file, its bytes and formats are gone, and so are its links', async () => {
    const post = await createPost('loses its cover');
    const uploaded = await send({
      operations: { query: UPLOAD, variables: { file: null, ref: 'api::post.post', refId: String(post), field: 'cover' } },
      map: { 0: ['variables.file'] },
      files: [{ field: '0', content: await png(300, 200), filename: 'photo.png', type: 'image/png' }],
    });
    const { id, attributes } = uploaded.body.data.upload.data;
    expect(Object.keys(attributes.formats)).to.deep.equal(['thumbnail']);
    const bytes = [`${attributes.hash}.png`, `thumbnail_${attributes.hash}.png`];
    expect(storedFiles(ctx.uploadsDir)).to.include.members(bytes);

    const response = await ctx.app.post('/graphql', { query: 'mutation ($id: ID!) { removeFile(id: $id) { data { id attributes { name hash } } } }', variables: { id } }, { token: ctx.token });
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ data: { removeFile: { data: { id, attributes: { name: 'photo.png', hash: attributes.hash } } } } });
    for (const name of bytes) expect(storedFiles(ctx.uploadsDir)).not.to.include(name);
    expect((await restFile(id)).status).to.equal(404);
    const read = await ctx.app.get(`/api/posts/${post}?populate=cover&fields[0]=title`);
    expect(read.body.data.attributes).to.deep.equal({ title: 'loses its cover', cover: { data: null } });
    const morphs = await ctx.app.app.db.sql.all(ctx.app.app.db.sql.knex('files_related_morphs').where('file_id', Number(id)));
    expect(morphs).to.deep.equal([]);
  });

  it('anonymous callers are FORBIDDEN (Strapi\'s GraphQL error) and nothing is stored or removed', async () => {
    const kept = (await uploadOne('kept', 'kept.txt')).body.data.upload.data;
    const before = storedFiles(ctx.uploadsDir);
    const rows = await rowCount();
    const upload = await uploadOne('x', 'anonymous.txt', {}, { token: '' });
    expect(upload.status).to.equal(200);
    expect(upload.body).to.deep.equal({ errors: [FORBIDDEN], data: null });
    const multiple = await send({ operations: { query: MULTIPLE, variables: { files: [null] } }, map: { 0: ['variables.files.0'] }, files: [{ field: '0', content: 'x', filename: 'x.txt' }], token: '' });
    expect(multiple.body).to.deep.equal({ errors: [FORBIDDEN], data: null });
    const update = await ctx.app.post('/graphql', { query: `mutation { updateFileInfo(id: "${kept.id}", info: { name: "x" }) { data { id } } }` });
    expect(update.body).to.deep.equal({ errors: [FORBIDDEN], data: null });
    const remove = await ctx.app.post('/graphql', { query: `mutation { removeFile(id: "${kept.id}") { data { id } } }` });
    expect(remove.body).to.deep.equal({ errors: [FORBIDDEN], data: { removeFile: null } });
    expect(storedFiles(ctx.uploadsDir)).to.deep.equal(before);
    expect(await rowCount()).to.equal(rows);
    expect((await restFile(kept.id)).body.name).to.equal('kept.txt');
  });

  it('an HTML page named photo.png (sent as image/png) gets the sniffed type: text/html, .html', async () => {
    const response = await send({
      operations: { query: UPLOAD, variables: { file: null } },
      map: { 0: ['variables.file'] },
      files: [{ field: '0', content: HTML, filename: 'photo.png', type: 'image/png' }],
    });
    const { attributes } = response.body.data.upload.data;
    expect(attributes).to.deep.include({ name: 'photo.png', mime: 'text/html', ext: '.html', url: `/uploads/${attributes.hash}.html` });
    const served = await fetch(`${ctx.app.url}${attributes.url}`);
    expect(served.headers.get('content-disposition')).to.equal('attachment');
  });

  it('a file over sizeLimit is a 413 while streaming: nothing stored, no temp files left', async () => {
    const tempBefore = temp.uploadDirs();
    const before = storedFiles(ctx.uploadsDir);
    const rows = await rowCount();
    const response = await uploadOne(Buffer.alloc(SIZE_LIMIT + 1024, 97), 'big.txt');
    expect(response.status).to.equal(413);
    expect(response.body).to.deep.equal({ data: null, error: { status: 413, name: 'PayloadTooLargeError', message: 'Payload Too Large', details: {} } });
    expect(storedFiles(ctx.uploadsDir)).to.deep.equal(before);
    expect(await rowCount()).to.equal(rows);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([...temp.uploadDirs()].filter((name) => !tempBefore.has(name))).to.deep.equal([]);
    // The service holds the limit for any caller, not only behind a parser.
    const big = path.join(ctx.app.dir, 'big.bin');
    fs.writeFileSync(big, Buffer.alloc(SIZE_LIMIT + 1, 97));
    const service = ctx.app.app.plugin('upload')!.service('upload') as unknown as UploadService;
    const refused = await service.upload([{ filepath: big, originalFilename: 'big.bin', size: SIZE_LIMIT + 1 }], [], null).catch((error: Error) => error);
    expect(refused).to.be.instanceOf(PayloadTooLargeError);
    expect((refused as Error).message).to.equal(`The files exceed the upload size limit (${SIZE_LIMIT} bytes)`);
    expect(await rowCount()).to.equal(rows);
    const justUnder = await uploadOne(Buffer.alloc(SIZE_LIMIT - 1024, 97), 'fits.txt');
    expect(justUnder.status).to.equal(200);
    expect(justUnder.body.data.upload.data.attributes.size).to.equal(Math.round(((SIZE_LIMIT - 1024) / 1000) * 100) / 100);
  });

  it('a map or operations the request cannot follow is a 400 naming it; nothing runs, nothing is stored, no temp files left', async () => {
    const tempBefore = temp.uploadDirs();
    const before = storedFiles(ctx.uploadsDir);
    const file = [{ field: '0', content: 'x', filename: 'x.txt' }];
    const operations = { query: UPLOAD, variables: { file: null } };
    const cases: Array<[Partial<MultipartRequest>, string]> = [
      [{ map: { 0: ['variables.nope'] } }, 'map["0"]: "variables.nope" is not a variable of the operations set to null'],
      [{ map: { 0: ['variables.file.deeper'] } }, 'map["0"]: "variables.file.deeper" is not a variable of the operations set to null'],
      [{ map: { 0: ['query'] } }, 'map["0"]: "query" is not a variable of the operations set to null'],
      [{ map: { 0: ['variables.__proto__'] } }, 'map["0"]: "variables.__proto__" is not a variable of the operations set to null'],
      [{ map: { 1: ['variables.file'] } }, 'map["1"] names no file of the request (send one file part named "1")'],
      [{ map: { 0: 'variables.file' } }, 'map["0"] must be a non-empty array of paths such as "variables.file"'],
      [{ map: ['variables.file'] }, 'The map field must be a JSON object: { "<file field>": ["variables.<path>"] }'],
      [{ map: '{not json' }, 'The map field is not valid JSON'],
      [{ operations: '{"query": ' }, 'The operations field is not valid JSON'],
      [{ operations: '"mutation { x }"' }, 'The operations field must be a JSON object (or an array of them for a batch)'],
    ];
    for (const [change, message] of cases) {
      const response = await send({ operations, map: { 0: ['variables.file'] }, files: file, ...change });
      expect(response.status, message).to.equal(400);
      expect(response.body, message).to.deep.equal({ errors: [{ message, extensions: { code: 'BAD_USER_INPUT' } }] });
    }
    expect(storedFiles(ctx.uploadsDir)).to.deep.equal(before);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([...temp.uploadDirs()].filter((name) => !tempBefore.has(name))).to.deep.equal([]);
  });

  it('a JSON variable is never taken for a file: the Upload scalar accepts only the parts of a multipart request', async () => {
    const rows = await rowCount();
    const forged = { filepath: path.join(ctx.app.dir, 'config', 'permissions.ts'), filename: 'stolen.txt', size: 10 };
    const response = await ctx.app.post('/graphql', { query: UPLOAD, variables: { file: forged } }, { token: ctx.token });
    expect(response.status).to.equal(400);
    expect(response.body.errors).to.have.length(1);
    expect(response.body.errors[0]).to.deep.include({
      message: `Variable "$file" got invalid value { filepath: "${forged.filepath}", filename: "stolen.txt", size: 10 }; Upload value invalid: send the file as a part of a multipart request (GraphQL multipart request spec)`,
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(await rowCount()).to.equal(rows);
  });

  it('a multipart request without a preflight-only header is refused (CSRF)', async () => {
    const form = new FormData();
    form.append('operations', JSON.stringify({ query: UPLOAD, variables: { file: null } }));
    form.append('map', JSON.stringify({ 0: ['variables.file'] }));
    form.append('0', new Blob(['x']), 'x.txt');
    const response = await fetch(`${ctx.app.url}/graphql`, { method: 'POST', body: form });
    expect(response.status).to.equal(400);
    expect(await response.json()).to.deep.equal({
      errors: [{ message: 'A multipart GraphQL request must carry an apollo-require-preflight or x-apollo-operation-name header (or Authorization): without one, a page on another site could send it (CSRF)', extensions: { code: 'BAD_USER_INPUT' } }],
    });
    const withOperationName = await uploadOne('x', 'named.txt', {}, { headers: { 'x-apollo-operation-name': 'Upload' }, token: '' });
    expect(withOperationName.body.errors[0].extensions.code).to.equal('FORBIDDEN');
  });

  it('multipart requests meet the JSON limits: batching refused unless enabled, document size, aliases', async () => {
    const file = [{ field: '0', content: 'x', filename: 'x.txt' }];
    const batch = await send({ operations: [{ query: UPLOAD, variables: { file: null } }], map: { 0: ['0.variables.file'] }, files: file });
    expect(batch.status).to.equal(400);
    expect(batch.body.errors[0].message).to.equal('Batched requests are not enabled on this endpoint');
    const padded = `${UPLOAD}\n#${' '.repeat(20000)}`;
    const large = await send({ operations: { query: padded, variables: { file: null } }, map: { 0: ['variables.file'] }, files: file });
    expect(large.status).to.equal(400);
    expect(large.body.errors[0].message).to.equal('The query is larger than 20000 characters');
    const aliases = Array.from({ length: 31 }, (_, n) => `a${n}: __typename`).join(' ');
    const aliased = await send({ operations: { query: `mutation ($file: Upload!) { upload(file: $file) { data { id } } ${aliases} }`, variables: { file: null } }, map: { 0: ['variables.file'] }, files: file });
    expect(aliased.status).to.equal(400);
    expect(aliased.body.errors[0]).to.deep.include({ message: 'The operation uses more than 30 aliases' });
    expect(aliased.body.errors[0].extensions.code).to.equal('GRAPHQL_VALIDATION_FAILED');
  });

  describe('with batchRequests on', () => {
    let batching: UploadApp;
    before(async () => {
      batching = await startUploadApp(dialect, { sizeLimit: SIZE_LIMIT }, [graphqlPlugin], { graphql: { enabled: true, config: { batchRequests: true } } });
    });
    after(() => batching?.app.stop());

    it('a batch puts each file in its own operation (<n>.variables.<path>); one file may fill several places', async () => {
      const operations = [{ query: UPLOAD, variables: { file: null, info: { name: 'first' } } }, { query: MULTIPLE, variables: { files: [null, null] } }];
      const files = [{ field: 'a', content: 'shared bytes', filename: 'a.txt' }, { field: 'b', content: 'other bytes', filename: 'b.txt' }];
      const response = await send({ operations, map: { a: ['0.variables.file', '1.variables.files.0'], b: ['1.variables.files.1'] }, files }, batching);
      expect(response.status).to.equal(200);
      const [one, many] = response.body;
      expect(one.data.upload.data.attributes).to.deep.include({ name: 'first', mime: 'text/plain' });
      expect(many.data.multipleUpload.map((result: any) => result.data.attributes.name)).to.deep.equal(['a.txt', 'b.txt']);
      const ids = many.data.multipleUpload.map((result: any) => result.data.id);
      const hashes = [one.data.upload.data.attributes.hash];
      for (const id of ids) hashes.push((await batching.app.get(`/api/upload/files/${id}`, { token: batching.token })).body.hash);
      expect(hashes.map((hash) => fs.readFileSync(path.join(batching.uploadsDir, `${hash}.txt`), 'utf8'))).to.deep.equal(['shared bytes', 'shared bytes', 'other bytes']);
      const outOfRange = await send(
        { operations: [{ query: UPLOAD, variables: { file: null } }], map: { 0: ['1.variables.file'] }, files: [{ field: '0', content: 'x', filename: 'x.txt' }] },
        batching,
      );
      expect(outOfRange.status).to.equal(400);
      expect(outOfRange.body).to.deep.equal({ errors: [{ message: 'map["0"]: "1.variables.file" is not a variable of the operations set to null', extensions: { code: 'BAD_USER_INPUT' } }] });
    });
  });
});
