/** What every case is made of, and the app most plugin READMEs assume. */
import type { TestApp } from '@tessera/testing';
import type { EcosystemCase } from '../harness';

export interface EcosystemSuite extends EcosystemCase {
  /** Each test gets the app and its service's environment (empty without a service). */
  tests: Record<string, (app: TestApp, env: Record<string, string>) => Promise<void>>;
}

/** An article type with a relation and a component, public `find`/`findOne`: what most plugin READMEs assume. */
export const ARTICLE_APP: Record<string, string | object> = {
  'config/permissions.js': `module.exports = { public: ['api::article.article.find', 'api::article.article.findOne', 'api::category.category.find'] };`,
  'src/components/shared/seo.json': { collectionName: 'components_shared_seos', info: { displayName: 'Seo' }, attributes: { metaTitle: { type: 'string' } } },
  'src/api/category/content-types/category/schema.json': {
    kind: 'collectionType',
    collectionName: 'categories',
    info: { singularName: 'category', pluralName: 'categories', displayName: 'Category' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'category' } },
  },
  'src/api/article/content-types/article/schema.json': {
    kind: 'collectionType',
    collectionName: 'articles',
    info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      slug: { type: 'string' },
      category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category', inversedBy: 'articles' },
      seo: { type: 'component', component: 'shared.seo' },
    },
  },
};

