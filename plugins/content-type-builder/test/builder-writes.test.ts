/**
 * The content-type builder's writes in development, against Strapi 4.26.2's recorded steps (recorded/: the peer's
 * answers and the files it wrote): creating a type with two fields and a relation writes the same schema, API
 * files and other side byte for byte and asks for a restart; after the restart the type's REST routes answer;
 * deleting it removes its files and the other side. Invalid bodies get Strapi's yup errors; without autoReload
 * every write is refused; a failed write changes nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { filesUnder, login, recorded, recordedJson, registerAdmin, startBuilderApp } from './builder-fixture';

interface Answer { status: number; body: unknown }
interface Answers {
  reservedNames: Answer;
  createBook: Answer;
  createAgain: Answer;
  editBook: Answer;
  deleteBook: Answer;
  notFound: Answer;
  refusedWithoutAutoReload: Answer;
  invalid: Array<Answer & { request: unknown }>;
}
const ANSWERS = recordedJson<Answers>('answers.json');
const CREATE_BOOK = recordedJson<unknown>('create-book/request.json');
const EDIT_BOOK = recordedJson<unknown>('edit-book/request.json');
const CATEGORY = 'src/api/category/content-types/category/schema.json';
const WRITER = 'src/api/writer/content-types/writer/schema.json';
const BOOK_FILES = ['content-types/book/schema.json', 'controllers/book.js', 'routes/book.js', 'services/book.js'];
const BASE = '/content-type-builder';

const read = (app: TestApp, relative: string) => fs.readFileSync(path.join(app.dir, relative), 'utf8');

/** The restart is asked for right after the answer (setImmediate), as Strapi's builder does. */
async function restartsAfterAnswer(restarts: string[], count: number): Promise<void> {
  for (let turn = 0; turn < 50 && restarts.length < count; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

eachDatabase('content-type builder writes in development (Strapi 4.26.2)', (dialect) => {
  const restarts: string[] = [];
  let app: TestApp;
  let token: string;
  const copies: string[] = [];
  before(async () => {
    app = await startBuilderApp(dialect, { autoReload: true, restart: (reason) => restarts.push(reason) });
    token = await registerAdmin(app);
  });
  /** The restart, as `tessera develop` does it: the same app folder and database, a new process' app. */
  async function restart(): Promise<void> {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'ctb-write-restart-'));
    copies.push(copy);
    fs.cpSync(path.join(app.dir, 'src'), path.join(copy, 'src'), { recursive: true });
    const database = app.database;
    await app.stop({ keepDatabase: true });
    app = await startBuilderApp(dialect, { autoReload: true, restart: (reason) => restarts.push(reason), from: copy, database });
    token = await login(app);
  }
  after(async () => {
    await app?.stop();
    for (const copy of copies) fs.rmSync(copy, { recursive: true, force: true });
  });

  it('answers the reserved names and refuses a caller without an admin session', async () => {
    const names = await app.get(`${BASE}/reserved-names`, { token });
    expect({ status: names.status, body: names.body }).to.deep.equal(ANSWERS.reservedNames);
    const anonymous = await app.post(`${BASE}/content-types`, CREATE_BOOK);
    expect(anonymous.status).to.equal(401);
    const contentApiToken = await app.fullAccessToken();
    expect((await app.post(`${BASE}/content-types`, CREATE_BOOK, { token: contentApiToken })).status).to.equal(401);
    expect(filesUnder(path.join(app.dir, 'src/api/book'))).to.deep.equal([]);
  });

  it("refuses invalid bodies with Strapi's yup errors, writing nothing", async () => {
    const before = read(app, CATEGORY);
    for (const invalid of ANSWERS.invalid) {
      const response = await app.post(`${BASE}/content-types`, invalid.request, { token });
      expect({ status: response.status, body: response.body }, JSON.stringify(invalid.request)).to.deep.equal({ status: invalid.status, body: invalid.body });
    }
    expect(read(app, CATEGORY)).to.equal(before);
    expect(fs.existsSync(path.join(app.dir, 'src/api/boat'))).to.equal(false);
    // A component edit with an invalid body is refused with the yup errors too, and writes nothing.
    const component = await app.put(`${BASE}/components/shared.seo`, { component: { displayName: '', category: 'shared', attributes: {} } }, { token });
    expect([component.status, component.body.error.details.errors.map((error: { message: string }) => error.message)]).to.deep.equal([400, ['component.displayName must be at least 1 characters', 'displayName.required']]);
    expect(filesUnder(path.join(app.dir, 'src/components'))).to.deep.equal(['shared/seo.json']);
    expect(restarts).to.deep.equal([]);
  });

  it('a failed write changes nothing: a file in the way of the new API puts back every file already written', async () => {
    const inTheWay = path.join(app.dir, 'src/api/book/routes/book.js');
    fs.mkdirSync(path.dirname(inTheWay), { recursive: true });
    fs.writeFileSync(inTheWay, '// mine\n');
    const before = read(app, CATEGORY);
    const refused = await app.post(`${BASE}/content-types`, CREATE_BOOK, { token });
    expect({ status: refused.status, body: refused.body }).to.deep.equal({ status: 400, body: { error: 'File already exists: src/api/book/routes/book.js' } });
    expect(filesUnder(path.join(app.dir, 'src/api/book'))).to.deep.equal(['routes/book.js']);
    expect(read(app, CATEGORY)).to.equal(before);
    fs.rmSync(path.join(app.dir, 'src/api/book'), { recursive: true });
    expect(restarts).to.deep.equal([]);
  });

  it('creates a type with two fields and a relation: the files Strapi writes, byte for byte, then a restart; its REST routes answer after it', async () => {
    const created = await app.post(`${BASE}/content-types`, CREATE_BOOK, { token });
    expect({ status: created.status, body: created.body }).to.deep.equal(ANSWERS.createBook);
    expect(filesUnder(path.join(app.dir, 'src/api/book'))).to.deep.equal(BOOK_FILES);
    for (const file of BOOK_FILES) expect(read(app, `src/api/book/${file}`), file).to.equal(recorded(`create-book/book/${file}`));
    expect(read(app, CATEGORY)).to.equal(recorded('create-book/category-schema.json'));
    await restartsAfterAnswer(restarts, 1);
    expect(restarts).to.have.length(1);

    await restart();
    const book = await app.get(`${BASE}/content-types/api::book.book`, { token });
    expect(book.body).to.deep.equal(recordedJson('create-book/get-book.json'));
    const rest = await app.fullAccessToken();
    const category = await app.post('/api/categories', { data: { name: 'Novels' } }, { token: rest });
    const posted = await app.post('/api/books?populate=category', { data: { title: 'Dune', pages: 412, category: category.body.data.id } }, { token: rest });
    expect(posted.status).to.equal(200);
    expect(posted.body.data.attributes).to.include({ title: 'Dune', pages: 412 });
    expect(posted.body.data.attributes.category.data.attributes.name).to.equal('Novels');
    const listed = await app.get('/api/categories?populate=books', { token: rest });
    expect(listed.body.data[0].attributes.books.data.map((entry: { id: number }) => entry.id)).to.deep.equal([posted.body.data.id]);
  });

  it('refuses a type whose names are taken, writing nothing', async () => {
    const before = read(app, CATEGORY);
    const again = await app.post(`${BASE}/content-types`, CREATE_BOOK, { token });
    expect({ status: again.status, body: again.body }).to.deep.equal(ANSWERS.createAgain);
    expect(read(app, CATEGORY)).to.equal(before);
  });

  it("edits it as Strapi: attributes replaced, a relation's other side moved, a new two-way relation's other side written", async () => {
    const edited = await app.put(`${BASE}/content-types/api::book.book`, EDIT_BOOK, { token });
    expect({ status: edited.status, body: edited.body }).to.deep.equal(ANSWERS.editBook);
    expect(read(app, 'src/api/book/content-types/book/schema.json')).to.equal(recorded('edit-book/book-schema.json'));
    expect(read(app, CATEGORY)).to.equal(recorded('edit-book/category-schema.json'));
    expect(read(app, WRITER)).to.equal(recorded('edit-book/writer-schema.json'));
    await restartsAfterAnswer(restarts, 2);
    expect(restarts).to.have.length(2);
    await restart();
    const rest = await app.fullAccessToken();
    const posted = await app.post('/api/books', { data: { title: 'Emma', isbn: '978-0' } }, { token: rest });
    expect(posted.status).to.equal(200);
    expect(posted.body.data.attributes).to.include({ title: 'Emma', isbn: '978-0' });
    expect(posted.body.data.attributes).to.not.have.property('pages');
  });

  it("deletes the type: its folder removed, the relations' other sides removed, then a restart", async () => {
    const before = restarts.length;
    const missing = await app.delete(`${BASE}/content-types/api::nope.nope`, { token });
    expect({ status: missing.status, body: missing.body }).to.deep.equal(ANSWERS.notFound);
    const deleted = await app.delete(`${BASE}/content-types/api::book.book`, { token });
    expect({ status: deleted.status, body: deleted.body }).to.deep.equal(ANSWERS.deleteBook);
    expect(fs.existsSync(path.join(app.dir, 'src/api/book'))).to.equal(false);
    expect(read(app, CATEGORY)).to.equal(recorded('delete-book/category-schema.json'));
    expect(read(app, WRITER)).to.equal(recorded('delete-book/writer-schema.json'));
    await restartsAfterAnswer(restarts, before + 1);
    expect(restarts).to.have.length(before + 1);
  });
});

eachDatabase('content-type builder outside development (Strapi 4.26.2)', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startBuilderApp(dialect, { autoReload: false });
    token = await registerAdmin(app);
  });
  after(() => app?.stop());

  it("refuses every write with Strapi's 403, writing nothing; reads still answer", async () => {
    const before = read(app, CATEGORY);
    const refused = [
      await app.post(`${BASE}/content-types`, CREATE_BOOK, { token }),
      await app.put(`${BASE}/content-types/api::category.category`, CREATE_BOOK, { token }),
      await app.delete(`${BASE}/content-types/api::tag.tag`, { token }),
      await app.put(`${BASE}/component-categories/shared`, { name: 'x' }, { token }),
    ];
    for (const response of refused) expect({ status: response.status, body: response.body }).to.deep.equal(ANSWERS.refusedWithoutAutoReload);
    expect(read(app, CATEGORY)).to.equal(before);
    expect(fs.existsSync(path.join(app.dir, 'src/api/tag/content-types/tag/schema.json'))).to.equal(true);
    expect((await app.get(`${BASE}/content-types/api::category.category`, { token })).status).to.equal(200);
  });
});
