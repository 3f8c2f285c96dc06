/**
 * strapi-plugin-schemas-to-ts: at register it reads `strapi.config.info.strapi`
 * (the version picks its interface builder: 4.14 and later) and
 * `strapi.dirs.app` (root, src, api, components, extensions), and writes a
 * TypeScript interface file beside each API schema and component.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

export const SCHEMAS_TO_TS: EcosystemSuite = {
  title: 'strapi-plugin-schemas-to-ts@1.3.2',
  packages: { 'strapi-plugin-schemas-to-ts': '1.3.2' },
  files: {
    ...ARTICLE_APP,
    // Its README's options; it converts only under the listed NODE_ENVs (the test run's is accepted here); errors only in the log.
    'config/plugins.js': `module.exports = () => ({
  'schemas-to-ts': {
    enabled: true,
    config: { acceptedNodeEnvs: [process.env.NODE_ENV ?? ''], commonInterfacesFolderName: 'schemas-to-ts', usePrettierIfAvailable: false, logLevel: 4 },
  },
});
`,
  },
  tests: {
    "writes each schema's interfaces beside it, with Strapi's version's builder": async (app) => {
      const read = (file: string) => fs.readFileSync(path.join(app.dir, file), 'utf8');
      const article = read('src/api/article/content-types/article/article.ts');
      expect(article).to.contain("import { Category } from '../../../category/content-types/category/category';");
      expect(article).to.contain("import { Seo } from '../../../../components/shared/interfaces/Seo';");
      // Its builder writes publishedAt whatever the type's draftAndPublish, and these joined lines, as it does on Strapi.
      expect(article).to.contain(`export interface Article {
  id: number;
  attributes: {
    createdAt: Date;    updatedAt: Date;    publishedAt?: Date;    title?: string;
    slug?: string;
    category?: { data: Category };
    seo?: Seo;
  };
}`);
      expect(article).to.contain('export interface Article_NoRelations {\n  id: number;\n  createdAt: Date;  updatedAt: Date;  publishedAt?: Date;  title?: string;\n  slug?: string;\n  category?: number;\n  seo?: Seo_NoRelations;\n}');
      expect(read('src/api/category/content-types/category/category.ts')).to.contain('articles: { data: Article[] };');
      expect(read('src/components/shared/interfaces/Seo.ts')).to.contain('export interface Seo {\n  metaTitle?: string;\n}');
      // The common interfaces (Media, Payload…) in src/common/<commonInterfacesFolderName>.
      expect(fs.readdirSync(path.join(app.dir, 'src/common/schemas-to-ts')).sort()).to.deep.equal([
        'AdminPanelRelationPropertyModification.ts', 'AfterRunEvent.ts', 'BeforeRunEvent.ts', 'Media.ts', 'MediaFormat.ts', 'Payload.ts', 'User.ts',
      ]);
    },
  },
};
