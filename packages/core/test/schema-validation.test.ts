/**
 * Broken schemas stop the boot with a message naming the file and the
 * problem. Validation runs before the database is touched, so SQLite is
 * enough here.
 */
import { expect } from 'chai';
import { bootError, startApp } from '@tessera/testing';

type Schema = Record<string, unknown>;

const NOTE = 'src/api/note/content-types/note/schema.json';
const BOOK = 'src/api/book/content-types/book/schema.json';

function note(attributes: Record<string, unknown> = { title: { type: 'string' } }, extra: Schema = {}): Schema {
  return {
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false },
    attributes,
    ...extra,
  };
}

async function failure(files: Record<string, string | object>): Promise<string> {
  const error = await bootError({ dialect: 'sqlite', files });
  expect(error.name).to.equal('ConfigurationError');
  return error.message;
}

/** The message names the file (by its app-relative path) and says what is wrong. */
function expectProblem(message: string, file: string, problem: string | RegExp): void {
  expect(message).to.contain(file);
  if (typeof problem === 'string') expect(message).to.contain(problem);
  else expect(message).to.match(problem);
}

describe('schema validation at boot', () => {
  it('rejects an unknown attribute type', async () => {
    const message = await failure({ [NOTE]: note({ title: { type: 'strnig' } }) });
    expectProblem(message, NOTE, 'attribute "title": unknown type "strnig"');
  });

  it('rejects a missing info.pluralName', async () => {
    const schema = note();
    schema.info = { singularName: 'note', displayName: 'Note' };
    expectProblem(await failure({ [NOTE]: schema }), NOTE, '"info.pluralName" is missing');
  });

  it('rejects a singularName that is not kebab-case', async () => {
    const schema = note();
    schema.info = { singularName: 'blogPost', pluralName: 'blog-posts', displayName: 'Blog post' };
    expectProblem(await failure({ [NOTE]: schema }), NOTE, '"info.singularName" must be kebab-case (e.g. "blog-post"), got "blogPost"');
  });

  it('rejects an API type whose singularName equals its pluralName (its REST paths would collide)', async () => {
    const schema = note();
    schema.info = { singularName: 'news', pluralName: 'news', displayName: 'News' };
    expectProblem(await failure({ [NOTE]: schema }), NOTE, '"info.singularName" and "info.pluralName" must differ');
  });

  it('accepts a plugin type whose singularName equals its pluralName, as Strapi 4.26.2 loads @webbio/strapi-plugin-scheduler', async () => {
    const plugin = `module.exports = { contentTypes: { scheduler: { schema: {
      kind: 'collectionType', collectionName: 'scheduler',
      info: { singularName: 'scheduler', pluralName: 'scheduler', displayName: 'scheduler' },
      attributes: { scheduledDatetime: { type: 'datetime' } } } } } };`;
    const app = await startApp({
      dialect: 'sqlite',
      noListen: true,
      files: { 'src/plugins/scheduler/strapi-server.js': plugin, 'config/plugins.js': `module.exports = { scheduler: { enabled: true, resolve: './src/plugins/scheduler' } };` },
    });
    try {
      const created = await app.app.db.query('plugin::scheduler.scheduler').create({ data: { scheduledDatetime: new Date('2030-01-01T00:00:00.000Z') } });
      expect(created.id).to.equal(1);
    } finally {
      await app.stop();
    }
  });

  it('rejects an invalid kind', async () => {
    expectProblem(await failure({ [NOTE]: note(undefined, { kind: 'collection' }) }), NOTE, '"kind" must be "collectionType" or "singleType", got "collection"');
  });

  it('rejects two content types with the same pluralName, naming the second file and the first type', async () => {
    const book = note({ title: { type: 'string' } }, { collectionName: 'books', info: { singularName: 'book', pluralName: 'notes', displayName: 'Book' } });
    const message = await failure({ [NOTE]: note(), [BOOK]: book });
    // `book` loads before `note` (folders are read in name order).
    expectProblem(message, NOTE, 'info.pluralName "notes" is already used by api::book.book');
  });

  it('rejects a relation to an unknown target', async () => {
    const message = await failure({ [NOTE]: note({ book: { type: 'relation', relation: 'manyToOne', target: 'api::book.book' } }) });
    expectProblem(message, NOTE, 'attribute "book": relation to unknown target "api::book.book"');
  });

  it('rejects an app relation to an admin type (API tokens hold credentials)', async () => {
    const message = await failure({ [NOTE]: note({ token: { type: 'relation', relation: 'manyToOne', target: 'admin::api-token' } }) });
    expectProblem(message, NOTE, 'attribute "token": relation to "admin::api-token": app content types and components cannot link to admin types');
  });

  it("boots a plugin type linked to Strapi's admin users without that relation (Tessera has none), as strapi-plugin-paper-trail's trail", async () => {
    const plugin = `module.exports = { contentTypes: { trail: { schema: {
      kind: 'collectionType', collectionName: 'trails', info: { singularName: 'trail', pluralName: 'trails', displayName: 'Trail' },
      attributes: { change: { type: 'string' }, admin_user: { type: 'relation', relation: 'oneToOne', target: 'admin::user' } } } } } };`;
    const app = await startApp({
      dialect: 'sqlite',
      noListen: true,
      files: { 'src/plugins/audit/strapi-server.js': plugin, 'config/plugins.js': `module.exports = { audit: { enabled: true, resolve: './src/plugins/audit' } };` },
    });
    try {
      expect(Object.keys(app.app.contentType('plugin::audit.trail')!.attributes)).to.not.include('admin_user');
      // What the plugin writes for it is dropped with the other keys that are no attribute.
      const created = await app.app.entityService.create('plugin::audit.trail', { data: { change: 'CREATE', admin_user: { connect: [] } } });
      expect(created).to.deep.include({ change: 'CREATE' });
    } finally {
      await app.stop();
    }
  });

  it('rejects a component relation to an admin type', async () => {
    const file = 'src/components/shared/grant.json';
    const grant = { collectionName: 'components_shared_grants', info: { displayName: 'Grant' }, attributes: { permission: { type: 'relation', relation: 'oneToOne', target: 'admin::api-token-permission' } } };
    const message = await failure({ [NOTE]: note({ grant: { type: 'component', component: 'shared.grant' } }), [file]: grant });
    expectProblem(message, file, 'attribute "permission": relation to "admin::api-token-permission": app content types and components cannot link to admin types');
  });

  it('rejects a mappedBy that names no attribute of the target', async () => {
    const book = note({ title: { type: 'string' } }, { collectionName: 'books', info: { singularName: 'book', pluralName: 'books', displayName: 'Book' } });
    const message = await failure({
      [BOOK]: book,
      [NOTE]: note({ books: { type: 'relation', relation: 'oneToMany', target: 'api::book.book', mappedBy: 'note' } }),
    });
    expectProblem(message, NOTE, 'attribute "books": mappedBy "note" is not a relation of api::book.book');
  });

  it('rejects an unknown component', async () => {
    const message = await failure({ [NOTE]: note({ seo: { type: 'component', component: 'shared.seo', repeatable: false } }) });
    expectProblem(message, NOTE, 'attribute "seo": unknown component "shared.seo"');
  });

  it('rejects an unknown component in a dynamic zone', async () => {
    const message = await failure({
      'src/components/shared/quote.json': { collectionName: 'components_shared_quotes', info: { displayName: 'Quote' }, attributes: { text: { type: 'text' } } },
      [NOTE]: note({ blocks: { type: 'dynamiczone', components: ['shared.quote', 'shared.slider'] } }),
    });
    expectProblem(message, NOTE, 'attribute "blocks": unknown component "shared.slider"');
  });

  it('rejects an enumeration without values', async () => {
    expectProblem(await failure({ [NOTE]: note({ status: { type: 'enumeration' } }) }), NOTE, 'attribute "status": "enum" must be a non-empty list of strings');
    expectProblem(await failure({ [NOTE]: note({ status: { type: 'enumeration', enum: [] } }) }), NOTE, 'attribute "status": "enum" must be a non-empty list of strings');
  });

  it('rejects invalid JSON', async () => {
    expectProblem(await failure({ [NOTE]: '{ "kind": "collectionType", ' }), NOTE, 'invalid JSON');
  });

  it('rejects a reserved attribute name', async () => {
    expectProblem(await failure({ [NOTE]: note({ id: { type: 'integer' } }) }), NOTE, 'attribute "id": this name is reserved');
    expectProblem(await failure({ [NOTE]: note({ createdAt: { type: 'datetime' } }) }), NOTE, 'attribute "createdAt": this name is reserved');
  });

  it('rejects an invalid regular expression', async () => {
    const message = await failure({ [NOTE]: note({ code: { type: 'string', regex: '^[a-z+' } }) });
    expectProblem(message, NOTE, 'attribute "code": "regex" is not a valid regular expression: ^[a-z+');
  });

  it('rejects a regex that can backtrack (ReDoS), naming the complexity and an input that triggers it', async () => {
    for (const [regex, complexity] of [['^(a+)+$', 'exponential'], ['^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', 'polynomial (degree 2)']]) {
      const message = await failure({ [NOTE]: note({ code: { type: 'string', regex } }) });
      expectProblem(message, NOTE, `attribute "code": "regex" ${regex} can backtrack (${complexity} time, e.g. on "`);
    }
  });

  it('rejects a uid whose targetField names a missing attribute', async () => {
    const message = await failure({ [NOTE]: note({ title: { type: 'string' }, slug: { type: 'uid', targetField: 'name' } }) });
    expectProblem(message, NOTE, 'attribute "slug": "targetField" must name a string attribute, got "name"');
  });

  it('rejects a relation with an unknown relation kind', async () => {
    const message = await failure({ [NOTE]: note({ other: { type: 'relation', relation: 'manyToSome', target: 'api::note.note' } }) });
    expectProblem(message, NOTE, 'attribute "other": unknown relation "manyToSome"');
  });

  it('rejects min greater than max and length rules on numbers', async () => {
    expectProblem(await failure({ [NOTE]: note({ n: { type: 'integer', min: 5, max: 1 } }) }), NOTE, 'attribute "n": "min" is greater than "max"');
    expectProblem(await failure({ [NOTE]: note({ n: { type: 'integer', maxLength: 3 } }) }), NOTE, 'attribute "n": "maxLength" does not apply to integer');
  });

  it('rejects a default value that does not fit its attribute', async () => {
    expectProblem(await failure({ [NOTE]: note({ n: { type: 'integer', default: 'many' } }) }), NOTE, 'attribute "n": "default"');
    expectProblem(await failure({ [NOTE]: note({ s: { type: 'enumeration', enum: ['a', 'b'], default: 'c' } }) }), NOTE, 'attribute "s": "default"');
  });

  it('rejects a schema.json that is missing beside its folder', async () => {
    const message = await failure({ 'src/api/note/content-types/note/lifecycles.ts': 'export default {};' });
    expectProblem(message, 'src/api/note/content-types/note', 'schema.json is missing');
  });

  it('rejects a broken component file, naming it', async () => {
    const file = 'src/components/shared/quote.json';
    const message = await failure({ [file]: { collectionName: 'components_shared_quotes', attributes: { text: { type: 'txt' } } }, [NOTE]: note() });
    expectProblem(message, file, 'attribute "text": unknown type "txt"');
  });
});

describe('typos caught at boot', () => {
  it('refuses an attribute option one typo away from a known one, with a did-you-mean', async () => {
    const message = await failure({ [NOTE]: note({ title: { type: 'string', requird: true } }) });
    expectProblem(message, NOTE, 'attribute "title": "requird" is not an attribute option: did you mean "required"?');
  });

  it('refuses misspelt schema, info and options keys', async () => {
    expectProblem(await failure({ [NOTE]: note(undefined, { atributes: {} }) }), NOTE, '"atributes" is not a key of a schema: did you mean "attributes"?');
    const info = note();
    info.info = { singularName: 'note', pluralName: 'notes', displayName: 'Note', descripton: 'x' };
    expectProblem(await failure({ [NOTE]: info }), NOTE, '"descripton" is not a key of "info": did you mean "description"?');
    expectProblem(await failure({ [NOTE]: note(undefined, { options: { draftAndPublsh: true } }) }), NOTE, '"draftAndPublsh" is not a key of "options": did you mean "draftAndPublish"?');
  });

  it('leaves alone unknown keys that are no typo (plugins and older files carry their own)', async () => {
    const { startApp } = await import('@tessera/testing');
    const app = await startApp({ dialect: 'sqlite', noListen: true, files: { [NOTE]: note({ title: { type: 'string', 'x-editor-hint': 'wide' } }, { connection: 'default' }) } });
    await app.stop();
  });

  it('names the content type a relation target was probably meant to be', async () => {
    const book = note({ title: { type: 'string' } }, { collectionName: 'books', info: { singularName: 'book', pluralName: 'books', displayName: 'Book' } });
    const message = await failure({ [BOOK]: book, [NOTE]: note({ book: { type: 'relation', relation: 'manyToOne', target: 'api::bok.book' } }) });
    expectProblem(message, NOTE, 'attribute "book": relation to unknown target "api::bok.book" (did you mean "api::book.book"?)');
  });

  it('gives the line and column of a JSON syntax error', async () => {
    const message = await failure({ [NOTE]: '{\n  "kind": "collectionType",\n  "collectionName": "notes"\n  "info": {}\n}\n' });
    expectProblem(message, NOTE, /invalid JSON: Expected ',' or '}' after property value at line 4, column 3/);
  });
});

describe('database configuration slips', () => {
  it('refuses DATABASE_URL when the client is SQLite, saying which variable to set', async () => {
    process.env.DATABASE_URL = 'postgres://localhost/blog';
    try {
      const error = await bootError({ dialect: 'sqlite', files: { [NOTE]: note() } });
      expect(error.message).to.contain('DATABASE_URL is set, but the database client is SQLite: set DATABASE_CLIENT=postgres');
    } finally {
      delete process.env.DATABASE_URL;
    }
  });
});
