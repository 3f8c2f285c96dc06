/**
 * The content manager's model controllers (Strapi 4.26.2's `init`, `content-types` and `components` controllers):
 * the model as the panel reads it, and the view configurations it reads and saves.
 */
import type Koa from 'koa';
import type { App, KernelContext } from '@tessera/core';
import { adminAbility } from '@tessera/plugin-admin';
import { MAX_CONFIGURATION_BYTES, overBudget } from '../budget';
import { FIELD_SIZES } from './field-sizes';
import { componentConfiguration, contentTypeConfiguration, contentTypesSettings, updateConfiguration } from './configurations';
import { configurationErrors } from './configuration-schema';
import { modelsOf, toDto, type CmModel } from './model';
import type { ConfigurationKind } from './store';

const KINDS = ['singleType', 'collectionType'];

const CONFIGURE_VIEW = { singleType: 'plugin::content-manager.single-types.configure-view', collectionType: 'plugin::content-manager.collection-types.configure-view' };

function answerError(ctx: Koa.Context, status: number, name: string, message: string, details: Record<string, unknown> = {}): void {
  ctx.status = status;
  ctx.body = { data: null, error: { status, name, message, details } };
}

const notFound = (ctx: Koa.Context, message: string) => answerError(ctx, 404, 'NotFoundError', message);

/** Strapi answers a refused configuration as `ctx.badRequest(null, { name: 'validationError', errors })`. */
function refuseConfiguration(ctx: Koa.Context, errors: string[]): void {
  answerError(ctx, 400, 'BadRequestError', 'Bad Request', { name: 'validationError', errors });
}

const bodyOf = (ctx: Koa.Context): unknown => (ctx.request as Koa.Request & { body?: unknown }).body;

async function saveConfiguration(app: App, ctx: Koa.Context, kind: ConfigurationKind, model: CmModel): Promise<boolean> {
  const body = bodyOf(ctx);
  const over = overBudget(body, MAX_CONFIGURATION_BYTES);
  if (over) {
    refuseConfiguration(ctx, [over]);
    return false;
  }
  const errors = configurationErrors(modelsOf(app), model, body);
  if (errors.length > 0) {
    refuseConfiguration(ctx, errors);
    return false;
  }
  await updateConfiguration(app, kind, model, body as Record<string, unknown>);
  return true;
}

export const LAYOUT_CONTROLLERS = {
  init: ({ app }: KernelContext) => ({
    getInitData(ctx: Koa.Context): void {
      const models = modelsOf(app);
      ctx.body = { data: { fieldSizes: FIELD_SIZES, components: models.components.map(toDto), contentTypes: models.contentTypes.map(toDto) } };
    },
  }),
  'content-types': ({ app }: KernelContext) => ({
    findContentTypes(ctx: Koa.Context): void {
      const kind = ctx.query.kind;
      if (kind !== undefined && (typeof kind !== 'string' || !KINDS.includes(kind))) {
        // Strapi answers its yup error as it is, under `error`.
        const message = 'this must be one of the following values: singleType, collectionType';
        ctx.status = 400;
        ctx.body = { error: { name: 'ValidationError', details: { errors: [{ path: [], message, name: 'ValidationError' }] }, message } };
        return;
      }
      ctx.body = { data: modelsOf(app).contentTypes.filter((model) => kind === undefined || model.kind === kind).map(toDto) };
    },
    async findContentTypesSettings(ctx: Koa.Context): Promise<void> {
      ctx.body = { data: await contentTypesSettings(app) };
    },
    async findContentTypeConfiguration(ctx: Koa.Context): Promise<void> {
      const model = modelsOf(app).contentType(String(ctx.params.uid));
      if (!model) return notFound(ctx, 'contentType.notFound');
      ctx.body = { data: await contentTypeConfiguration(app, model) };
    },
    async updateContentTypeConfiguration(ctx: Koa.Context): Promise<void> {
      const model = modelsOf(app).contentType(String(ctx.params.uid));
      if (!model) return notFound(ctx, 'contentType.notFound');
      const action = CONFIGURE_VIEW[model.kind ?? 'collectionType'];
      if (!adminAbility(ctx).can(action)) return answerError(ctx, 403, 'ForbiddenError', 'Forbidden');
      if (!(await saveConfiguration(app, ctx, 'content_types', model))) return;
      ctx.body = { data: await contentTypeConfiguration(app, model) };
    },
  }),
  components: ({ app }: KernelContext) => ({
    findComponents(ctx: Koa.Context): void {
      ctx.body = { data: modelsOf(app).components.map(toDto) };
    },
    async findComponentConfiguration(ctx: Koa.Context): Promise<void> {
      const model = modelsOf(app).component(String(ctx.params.uid));
      if (!model) return notFound(ctx, 'component.notFound');
      ctx.body = { data: await componentConfiguration(app, model) };
    },
    async updateComponentConfiguration(ctx: Koa.Context): Promise<void> {
      const model = modelsOf(app).component(String(ctx.params.uid));
      if (!model) return notFound(ctx, 'component.notFound');
      if (!(await saveConfiguration(app, ctx, 'components', model))) return;
      // Strapi answers the component's own configuration here, without the nested ones.
      ctx.body = { data: (await componentConfiguration(app, model)).component };
    },
  }),
};
