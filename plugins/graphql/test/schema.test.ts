/**
 * The generated schema, read by introspection over HTTP, against the schema
 * Strapi 4.26 generated for the same model (../shared/reference): every type
 * we generate for the reference model is the same, field for field, with
 * the same arguments and defaults — except where the spec asks for more
 * (timestamps in `<Type>Input`) or the upload plugin will add its own parts.
 * Then the example app's richer model: components, dynamic zones, media,
 * private fields.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { buildClientSchema, getIntrospectionQuery, GraphQLUnionType, lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { EXAMPLE_APP, SHARED_REFERENCE, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { gqlData } from './helpers';

const REFERENCE = path.join(SHARED_REFERENCE, 'strapi4-graphql-schema.graphql');
/**
 * Parts of the reference that belong to other plugins (i18n, upload's folders) or the localized
 * page. i18n's types and the localized page's are compared in plugins/i18n/test/graphql.test.ts.
 */
const OTHER_PLUGINS = /^(I18N|UploadFolder|Page|GenericMorph|FileInfoInput)/;
/** Private user attributes: in no type of ours (Strapi lists them), except the write-only password of the user input, as in Strapi. */
const PRIVATE_USER_FIELDS = /^(password|resetPasswordToken|confirmationToken):/;

/** `type X {...}` blocks of a printed schema, by name. */
function blocks(sdl: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  // Blank lines separate fields with descriptions in a printed schema.
  const pattern = /^(?:type|input|enum|union|scalar) (\w+)([^\n]*)(?:\n((?: {2}.*\n|\n)*)\})?/gm;
  for (const match of sdl.matchAll(pattern)) {
    const lines = (match[3] ?? '').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('"""') && !line.endsWith('"""'));
    result.set(match[1], [match[2].trim(), ...lines]);
  }
  return result;
}

async function introspect(app: TestApp): Promise<GraphQLSchema> {
  const data = await gqlData(app, getIntrospectionQuery());
  return lexicographicSortSchema(buildClientSchema(data));
}

eachDatabase('GraphQL schema (introspection)', (dialect) => {
  describe('the reference model', () => {
    let ours: Map<string, string[]>;
    const reference = blocks(fs.readFileSync(REFERENCE, 'utf8'));
    before(async () => {
      const app = await startApp({ dialect, from: path.join(SHARED_REFERENCE, 'strapi4-fixture'), files: { 'config/plugins.js': "module.exports = { graphql: { enabled: true }, 'users-permissions': { enabled: true } };" } });
      try {
        ours = blocks(printSchema(await introspect(app)));
      } finally {
        await app.stop();
      }
    });

    it('has every type Strapi generates for the content types, components and shared types, the same', () => {
      const compared: string[] = [];
      for (const [name, lines] of reference) {
        if (OTHER_PLUGINS.test(name) || name === 'Query' || name === 'Mutation') continue;
        expect(ours.has(name), `missing ${name}`).to.equal(true);
        let expected = lines;
        if (name.endsWith('Input') && ours.get(name)!.includes('createdAt: DateTime')) {
          // The spec's <Type>Input carries the timestamps too (accepted and ignored, as REST ignores them).
          expected = [...lines, 'createdAt: DateTime', 'updatedAt: DateTime'];
        }
        if (name === 'UploadFile') expected = expected.filter((line) => !line.startsWith('related:')); // polymorphic, not generated
        if (name === 'UploadFileFiltersInput' || name === 'UploadFileInput') expected = expected.filter((line) => !/^folder/.test(line)); // the upload plugin's folders
        if (name === 'UsersPermissionsUserFiltersInput') expected = expected.filter((line) => !PRIVATE_USER_FIELDS.test(line));
        if (name === 'UsersPermissionsUserInput') expected = expected.filter((line) => line.startsWith('password:') || !PRIVATE_USER_FIELDS.test(line));
        const [header, ...fields] = ours.get(name)!;
        expect(header, name).to.equal(expected[0]);
        expect([...fields].sort(), name).to.deep.equal(expected.slice(1).sort());
        compared.push(name);
      }
      expect(compared).to.include.members(['Article', 'ArticleFiltersInput', 'ArticleInput', 'ENUM_ARTICLE_STATUS', 'ComponentSharedSeo', 'PaginationArg', 'StringFilterInput', 'UploadFile', 'UsersPermissionsMe', 'UsersPermissionsUserInput']);
      expect(compared.length).to.be.greaterThan(40);
    });

    it('has the same shadow-CRUD queries and mutations, with the same arguments and defaults', () => {
      for (const root of ['Query', 'Mutation']) {
        const expected = reference.get(root)!.slice(1).filter((line) => /^(article|categor|tag|writer|homepage|uploadFile|createArticle|createCategory|createTag|createWriter|createUploadFile|update(Article|Category|Tag|Writer|Homepage|UploadFile)\(|delete(Article|Category|Tag|Writer|Homepage|UploadFile)\b)/.test(line));
        expect(expected.length).to.be.greaterThan(10);
        for (const line of expected) expect(ours.get(root), `${root}: ${line}`).to.include(line);
      }
    });

    it('adds the scalars and filters the spec lists beyond the reference model', () => {
      for (const name of ['JSON', 'DateTime', 'Date', 'Time', 'Long', 'Upload', 'LongFilterInput', 'TimeFilterInput', 'IDFilterInput', 'JSONFilterInput', 'PublicationState', 'ResponseCollectionMeta', 'Pagination']) {
        expect(ours.has(name), name).to.equal(true);
      }
      expect(ours.get('TimeFilterInput')).to.include.members(['between: [Time]', 'containsi: Time', 'not: TimeFilterInput', 'notNull: Boolean']);
    });
  });

  describe('the example model', () => {
    let app: TestApp;
    let schema: GraphQLSchema;
    let sdl: Map<string, string[]>;
    before(async () => {
      app = await startApp({ dialect, from: EXAMPLE_APP });
      schema = await introspect(app);
      sdl = blocks(printSchema(schema));
    });
    after(() => app?.stop());

    it('never exposes private attributes: not as output, input or filter', () => {
      for (const name of ['Page', 'PageInput', 'PageFiltersInput']) {
        const fields = sdl.get(name)!.slice(1).map((line) => line.split(/[(:]/)[0]);
        expect(fields, name).to.not.include.members(['notes', 'reviewer']);
      }
      expect(sdl.get('UploadFile')!.join('\n')).to.not.contain('folderPath');
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
