/**
 * The content API of Strapi v4's content-type-builder plugin (internal to
 * Strapi, so on in every Strapi app): `GET /api/content-type-builder/
 * content-types` (optionally `?kind=collectionType|singleType`),
 * `/content-types/:uid`, `/components`, `/components/:uid`, with Strapi's
 * actions (`plugin::content-type-builder.content-types.getContentTypes`, …),
 * so a full-access token reads them and the public role does not. Editing
 * schemas is the admin panel's: the same reads and the builder's writes on the admin router (admin/routes.ts),
 * writable in development only (admin/development.ts).
 */
import type Koa from 'koa';
import type { App, Plugin } from '@tessera/core';
import { formatComponent, formatContentType } from './format';
import { builderController, builderWritesController, componentWritesController } from './admin/controllers';
import { ADMIN_ROUTES } from './admin/routes';

export type { FormattedComponent, FormattedContentType } from './format';

const KINDS = new Set(['collectionType', 'singleType']);

/** The registry's types as Strapi's `strapi.contentTypes` holds them: Tessera's own bare tables (the core store) are models, not content types. */
const contentTypesOf = (app: App) => app.contentTypes.values().filter((contentType) => contentType.bareTable !== true);

function contentTypesController(app: App) {
  return {
    getContentTypes(ctx: Koa.Context): void {
      const kind = ctx.query.kind;
      if (kind !== undefined && (typeof kind !== 'string' || !KINDS.has(kind))) {
        // Strapi answers its yup error as it is, under `error`.
        ctx.status = 400;
        ctx.body = { error: { name: 'ValidationError', message: 'this must be one of the following values: singleType, collectionType', details: { errors: [{ path: [], message: 'this must be one of the following values: singleType, collectionType', name: 'ValidationError' }] } } };
        return;
      }
      ctx.body = { data: contentTypesOf(app).filter((contentType) => kind === undefined || contentType.kind === kind).map(formatContentType) };
    },
    getContentType(ctx: Koa.Context): void {
      const contentType = contentTypesOf(app).find((candidate) => candidate.uid === ctx.params.uid);
      if (!contentType) {
        ctx.status = 404;
        ctx.body = { error: 'contentType.notFound' };
        return;
      }
      ctx.body = { data: formatContentType(contentType) };
    },
  };
}

function componentsController(app: App) {
  return {
    getComponents(ctx: Koa.Context): void {
      ctx.body = { data: app.components.values().map(formatComponent) };
    },
    getComponent(ctx: Koa.Context): void {
      const component = app.components.find(String(ctx.params.uid));
      if (!component) {
        ctx.status = 404;
        ctx.body = { error: 'component.notFound' };
        return;
      }
      ctx.body = { data: formatComponent(component) };
    },
  };
}

export const contentTypeBuilderPlugin: Plugin = {
  name: 'content-type-builder',
  controllers: {
    'content-types': ({ app }) => ({ ...contentTypesController(app), ...builderWritesController(app) }),
    components: ({ app }) => ({ ...componentsController(app), ...componentWritesController(app) }),
    'component-categories': ({ app }) => {
      const { editCategory, deleteCategory } = componentWritesController(app);
      return { editCategory, deleteCategory };
    },
    builder: () => builderController(),
  },
  routes: {
    // Without the admin plugin, the kernel answers these 401 (no admin strategy) and never resolves their policies.
    admin: { type: 'admin', routes: ADMIN_ROUTES },
    'content-api': {
      type: 'content-api',
      routes: [
        { method: 'GET', path: '/content-types', handler: 'content-types.getContentTypes' },
        { method: 'GET', path: '/content-types/:uid', handler: 'content-types.getContentType' },
        { method: 'GET', path: '/components', handler: 'components.getComponents' },
        { method: 'GET', path: '/components/:uid', handler: 'components.getComponent' },
      ],
    },
  },
};

export default contentTypeBuilderPlugin;
