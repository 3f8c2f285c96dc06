/**
 * The generated schema, read by introspection over HTTP, against the schema
 * Strapi 4.26.2 generated for the same model (../shared/reference: the blog
 * fixture, the localized page, and the users-permissions, upload, i18n and
 * graphql plugins): every type, field, argument and default is the same,
 * and the only differences are the deliberate ones the README lists —
 * nothing missing, nothing extra. Then the example app's richer model:
 * components, dynamic zones, media, private fields.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { buildClientSchema, getIntrospectionQuery, GraphQLUnionType, lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { EXAMPLE_APP, SHARED_REFERENCE, eachDatabase, requireReference, startApp, type TestApp } from '@tessera/testing';
import { gql, gqlData } from './helpers';

const REFERENCE = path.join(SHARED_REFERENCE, 'strapi4-graphql-schema.graphql');
const PAGE_SCHEMA = path.join(SHARED_REFERENCE, 'strapi4-fixture-i18n/src/api/page/content-types/page/schema.json');
const ALL_PLUGINS = "module.exports = { graphql: { enabled: true }, 'users-permissions': { enabled: true }, i18n: { enabled: true }, upload: { enabled: true } };";

/**
 * The deliberate differences from Strapi's schema (README, "GraphQL compared with Strapi v4"), as the diff lines
 * `schemaDiff` prints: `+` what only Tessera has, `-` what only Strapi has.
 */
const TIMESTAMPED_INPUTS = ['ArticleInput', 'CategoryInput', 'HomepageInput', 'PageInput', 'TagInput', 'UsersPermissionsRoleInput', 'UsersPermissionsUserInput', 'WriterInput'];
const DELIBERATE = [
  // The spec's <Type>Input lists the timestamps (accepted and ignored, as REST ignores them).
  ...TIMESTAMPED_INPUTS.flatMap((name) => [`+ ${name}.createdAt: DateTime`, `+ ${name}.updatedAt: DateTime`]),
  // No shadow-CRUD writes of upload's types (files change through the upload service only), so neither the inputs only they take.
  ...['create', 'update', 'delete'].flatMap((action) => ['UploadFile', 'UploadFolder'].map((type) => `- Mutation.${action}${type}`)),
  '- input UploadFileInput',
  '- input UploadFolderInput',
  // A user's secrets are in no input or filter (the password stays writable in UsersPermissionsUserInput).
  '- UsersPermissionsUserFiltersInput.confirmationToken',
  '- UsersPermissionsUserFiltersInput.password',
  '- UsersPermissionsUserFiltersInput.resetPasswordToken',
  '- UsersPermissionsUserInput.confirmationToken',
  '- UsersPermissionsUserInput.resetPasswordToken',
].sort();

interface Block {
  /** `type`, `input`, `enum`, `union` or `scalar`, with what follows the name (`= A | B` of a union). */
  header: string;
  /** Field lines by field name (enum values by value), descriptions left out. */
  fields: Map<string, string>;
}

/** `type X {...}` blocks of a printed schema, by name. */
function blocks(sdl: string): Map<string, Block> {
  const result = new Map<string, Block>();
  // Blank lines separate fields with descriptions in a printed schema.
  const pattern = /^(type|input|enum|union|scalar) (\w+)([^\n]*)(?:\n((?: {2}.*\n|\n)*)\})?/gm;
  for (const match of sdl.matchAll(pattern)) {
    const lines = (match[4] ?? '').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('"""') && !line.endsWith('"""'));
    const header = `${match[1]}${match[3].replace('{', '').trimEnd()}`;
    result.set(match[2], { header, fields: new Map(lines.map((line) => [line.split(/[(:]/)[0].trim(), line])) });
  }
  return result;
}

/** Every difference, one line each: a type only one side has, a field only one side has, or a field that differs. */
function schemaDiff(reference: Map<string, Block>, ours: Map<string, Block>): string[] {
  const diff: string[] = [];
  for (const [name, block] of reference) if (!ours.has(name)) diff.push(`- ${block.header.split(' ')[0]} ${name}`);
  for (const [name, block] of ours) if (!reference.has(name)) diff.push(`+ ${block.header.split(' ')[0]} ${name}`);
  for (const [name, expected] of reference) {
    const actual = ours.get(name);
    if (!actual) continue;
    if (actual.header !== expected.header) diff.push(`~ ${name}: ${expected.header} → ${actual.header}`);
    for (const [field, line] of expected.fields) {
      if (!actual.fields.has(field)) diff.push(`- ${name}.${field}`);
      else if (actual.fields.get(field) !== line) diff.push(`~ ${name}.${field}: ${line} → ${actual.fields.get(field)}`);
    }
    for (const [field, line] of actual.fields) if (!expected.fields.has(field)) diff.push(`+ ${name}.${line}`);
  }
  return diff.sort();
}

async function introspect(app: TestApp): Promise<GraphQLSchema> {
  const data = await gqlData(app, getIntrospectionQuery());
  return lexicographicSortSchema(buildClientSchema(data));
}

eachDatabase('GraphQL schema (introspection)', (dialect) => {
  describe('the reference model with the four plugins', () => {
    let ours: Map<string, Block>;
    const reference = blocks(fs.readFileSync(REFERENCE, 'utf8'));
    before(async () => {
      const app = await startApp({
        dialect,
        from: path.join(SHARED_REFERENCE, 'strapi4-fixture'),
        files: { 'config/plugins.js': ALL_PLUGINS, 'src/api/page/content-types/page/schema.json': fs.readFileSync(PAGE_SCHEMA, 'utf8') },
      });
      try {
        ours = blocks(printSchema(await introspect(app)));
      } finally {
        await app.stop();
      }
    });

    it('differs from Strapi 4.26.2\'s exactly by the deliberate differences: no type or field missing or extra', () => {
      expect(reference.size).to.be.greaterThan(90);
      expect(schemaDiff(reference, ours)).to.deep.equal(DELIBERATE);
    });

    it('has Strapi\'s GenericMorph, with every generated type, and UploadFile.related', () => {
      expect(ours.get('GenericMorph')!.header).to.equal(reference.get('GenericMorph')!.header);
      expect(ours.get('GenericMorph')!.header).to.contain('| UsersPermissionsUser |');
      expect(ours.get('UploadFile')!.fields.get('related')).to.equal('related: [GenericMorph]');
    });

    it('emits only reachable types: no Time, Long, Error or unused relation collections on this model', () => {
      for (const name of ['Time', 'Long', 'Error', 'LongFilterInput', 'TimeFilterInput', 'HomepageFiltersInput', 'WriterRelationResponseCollection', 'UsersPermissionsPermissionInput', 'I18NLocaleInput']) {
        expect(ours.has(name), name).to.equal(false);
      }
    });
  });

  describe('the peer fixture with its extension and the four plugins', () => {
    let ours: Map<string, Block>;
    const PEER = path.resolve(SHARED_REFERENCE, '../strapi4-peer/app');
    const recorded = blocks(fs.readFileSync(path.join(__dirname, 'data', 'strapi-4.26.2-peer-schema.graphql'), 'utf8'));
    before(async function () {
      requireReference(this, '../strapi4-peer/app/src/index.js');
      const app = await startApp({
        dialect,
        from: PEER,
        files: {
          'config/plugins.js': ALL_PLUGINS,
          // The peer's register (its GraphQL extension of api::note.note); its bootstrap seeds Strapi's own admin tables.
          'src/index.js': `const peer = require(${JSON.stringify(path.join(PEER, 'src/index.js'))}); module.exports = { register: peer.register };`,
        },
      });
      try {
        ours = blocks(printSchema(await introspect(app)));
      } finally {
        await app.stop();
      }
    });

    it('differs from the schema Strapi 4.26.2 served for it exactly by the deliberate differences', () => {
      expect(recorded.get('Note')).to.not.equal(undefined);
      expect(recorded.get('GenericMorph')!.header).to.contain('| Note |');
      const expected = [...DELIBERATE, '+ NoteInput.createdAt: DateTime', '+ NoteInput.updatedAt: DateTime'].sort();
      expect(schemaDiff(recorded, ours)).to.deep.equal(expected);
    });
  });

  describe('the example model', () => {
    let app: TestApp;
    let schema: GraphQLSchema;
    let sdl: Map<string, string[]>;
    before(async () => {
      app = await startApp({ dialect, from: EXAMPLE_APP });
      schema = await introspect(app);
      sdl = new Map([...blocks(printSchema(schema))].map(([name, block]) => [name, [block.header, ...block.fields.values()]]));
    });
    after(() => app?.stop());

    it('never outputs private attributes; lists them in inputs and filters as Strapi does, where filtering on one is a 400', async () => {
      const names = (type: string) => sdl.get(type)!.slice(1).map((line) => line.split(/[(:]/)[0]);
      expect(names('Page')).to.not.include.members(['notes']);
      expect(names('Page')).to.not.include.members(['reviewer']);
      expect(names('UploadFile')).to.not.include.members(['folder']);
      expect(names('UploadFile')).to.not.include.members(['folderPath']);
      expect(names('PageInput')).to.include.members(['notes', 'reviewer']);
      expect(names('PageFiltersInput')).to.include.members(['notes', 'reviewer']);
      expect(names('UploadFileFiltersInput')).to.include.members(['folder', 'folderPath']);
      const token = await app.fullAccessToken();
      for (const [query, key] of [
        ['{ pages(filters: { notes: { eq: "x" } }) { data { id } } }', 'notes'],
        ['{ uploadFiles(filters: { folderPath: { eq: "/" } }) { data { id } } }', 'folderPath'],
      ]) {
        const response = await gql(app, query, { token });
        expect(response.status, query).to.equal(200);
        expect(response.body.errors![0].extensions!.code, query).to.equal('BAD_USER_INPUT');
        expect(response.body.errors![0].message, query).to.contain(key);
      }
      const read = await gql(app, '{ pages { data { attributes { notes } } } }', { token });
      expect(read.status).to.equal(400);
      expect(read.body.errors![0].extensions!.code).to.equal('GRAPHQL_VALIDATION_FAILED');
    });

    it('gives components, repeatable components, dynamic zones and media their Strapi types', () => {
      const page = sdl.get('Page')!;
      expect(page).to.include.members([
        'seo: ComponentSharedSeo',
        'links(filters: ComponentSharedLinkFiltersInput, pagination: PaginationArg = {}, sort: [String] = []): [ComponentSharedLink]',
        'content: [PageContentDynamicZone]',
        'gallery(filters: UploadFileFiltersInput, pagination: PaginationArg = {}, sort: [String] = []): UploadFileRelationResponseCollection',
        'author: WriterEntityResponse',
        'children(filters: PageFiltersInput, pagination: PaginationArg = {}, publicationState: PublicationState = LIVE, sort: [String] = []): PageRelationResponseCollection',
      ]);
      const zone = schema.getType('PageContentDynamicZone') as GraphQLUnionType;
      expect(zone.getTypes().map((type) => type.name)).to.have.members(['ComponentSharedRichText', 'ComponentSharedQuote', 'ComponentSharedFeature', 'Error']);
      expect(sdl.get('PageInput')).to.include.members(['content: [PageContentDynamicZoneInput!]', 'gallery: [ID]', 'links: [ComponentSharedLinkInput]', 'seo: ComponentSharedSeoInput']);
      expect(sdl.get('ComponentSharedFeature')).to.include.members(['id: ID!', 'title: String!', 'link: ComponentSharedLink', 'article: ArticleEntityResponse']);
      expect(sdl.get('ComponentSharedLinkInput')).to.include.members(['id: ID', 'label: String', 'newTab: Boolean']);
      expect(sdl.get('Error')!.slice(1)).to.deep.equal(['code: String!', 'message: String']);
      expect(sdl.get('WriterProfile')).to.include('writer: WriterEntityResponse');
      expect(sdl.get('Query')).to.include.members(['writerProfile(id: ID): WriterProfileEntityResponse', 'homepage: HomepageEntityResponse']);
    });
  });
});
