/**
 * i18n's admin controllers (Strapi 4.26.2's `locales`, `iso-locales` and
 * `content-types`): the Settings → Internationalization page's locales (list,
 * create, rename, make default, delete — never the default one) over the same
 * `i18n_locale` rows and default-locale store row the content API reads, the
 * ISO list, and the content manager's "fill in from another locale".
 */
import type Koa from 'koa';
import { requestBody, type App, type KernelContext } from '@tessera/core';
import { ApplicationError, NotFoundError } from '@tessera/errors';
import { adminAbility } from '@tessera/plugin-admin';
import type { Editor } from '../locales';
import { checkCreateLocale, checkUpdateLocale, checkNonLocalizedRequest } from './locale-checks';
import { nonLocalizedFields } from './non-localized-fields';

const i18n = (app: App) => app.plugin('i18n')!;

/** The signed-in admin, as the editor of what it writes (`createdBy`/`updatedBy`). */
function editorOf(ctx: Koa.Context): Editor {
  return { id: adminAbility(ctx).userId };
}

const localeNotFound = () => new NotFoundError('locale.notFound');

/** A locale id from the path: anything but digits names no locale. */
function localeId(raw: unknown): number | null {
  return typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}

export function adminLocalesController({ app }: KernelContext) {
  const locales = () => i18n(app).service('locales');
  return {
    async listLocales(ctx: Koa.Context) {
      ctx.body = locales().setIsDefault(await locales().find());
    },

    async createLocale(ctx: Koa.Context) {
      const input = checkCreateLocale(requestBody(ctx));
      if (await locales().findByCode(input.code)) throw new ApplicationError('This locale already exists');
      const created = await locales().create({ code: input.code, name: input.name, isDefault: input.isDefault }, editorOf(ctx));
      ctx.body = locales().setIsDefault(created);
    },

    async updateLocale(ctx: Koa.Context) {
      const updates = checkUpdateLocale(requestBody(ctx));
      const id = localeId(ctx.params.id);
      if (id === null || !(await locales().findById(id))) throw localeNotFound();
      const updated = await locales().update({ id }, updates, editorOf(ctx));
      if (!updated) throw localeNotFound();
      ctx.body = locales().setIsDefault(updated);
    },

    async deleteLocale(ctx: Koa.Context) {
      const id = localeId(ctx.params.id);
      const existing = id === null ? null : await locales().findById(id);
      if (!existing) throw localeNotFound();
      if (existing.code === locales().getDefaultLocale()) throw new ApplicationError('Cannot delete the default locale');
      const deleted = await locales().delete({ id: existing.id });
      if (!deleted) throw localeNotFound();
      ctx.body = deleted;
    },
  };
}

export function adminIsoLocalesController({ app }: KernelContext) {
  return {
    listIsoLocales(ctx: Koa.Context) {
      ctx.body = i18n(app).service('iso-locales').getIsoLocales();
    },
  };
}

export function adminContentTypesController({ app }: KernelContext) {
  return {
    async getNonLocalizedAttributes(ctx: Koa.Context) {
      const isSingle = (model: string) => app.contentTypes.has(model) && app.contentTypes.get(model).kind === 'singleType';
      const request = checkNonLocalizedRequest(requestBody(ctx), isSingle);
      ctx.body = await nonLocalizedFields(app, request, ctx);
    },
  };
}
