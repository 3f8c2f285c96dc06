/**
 * `POST /i18n/content-manager/actions/get-non-localized-fields`: what the
 * content manager copies into a new localization ("fill in from another
 * locale"): the entry's shared (non-localized) fields — components without
 * their ids, media as read —, only those the admin may read or create in the
 * target locale, and the entry's localizations (each as stored, then the
 * entry's own `{ id, locale, publishedAt }`), as Strapi 4.26.2 answers.
 */
import type Koa from 'koa';
import type { App, Entity } from '@tessera/core';
import { ApplicationError, NotFoundError } from '@tessera/errors';
import { isRecord } from '../localization-groups';
import { isLocalizedContentType, LOCALE_ATTRIBUTE, LOCALIZATIONS_ATTRIBUTE, sharedAttributes } from '../localized-types';
import type { NonLocalizedRequest } from './locale-checks';
import { permittedFields } from './locale-permissions';

export async function nonLocalizedFields(app: App, request: NonLocalizedRequest, ctx: Koa.Context): Promise<Record<string, unknown>> {
  const contentType = app.contentTypes.has(request.model) ? app.contentTypes.get(request.model) : undefined;
  if (!contentType || !isLocalizedContentType(contentType)) throw new ApplicationError('model.not.localized');
  const single = contentType.kind === 'singleType';
  const id = single ? null : typeof request.id === 'number' ? request.id : typeof request.id === 'string' && /^\d{1,15}$/.test(request.id) ? Number(request.id) : NaN;
  if (Number.isNaN(id)) throw new NotFoundError();
  const { columns, links } = sharedAttributes(contentType);
  const populate: Record<string, unknown> = Object.fromEntries(links.map((name) => [name, true]));
  populate[LOCALIZATIONS_ATTRIBUTE] = true;
  const entry = await app.db.query(request.model).findOne({ ...(id === null ? { orderBy: { id: 'asc' } } : { where: { id } }), populate });
  if (!entry) throw new NotFoundError();
  const allowed = await permittedFields(app, ctx, request.model, request.locale);
  const fields: Record<string, unknown> = {};
  for (const name of [...columns, ...links].sort(byDeclaration(Object.keys(contentType.attributes)))) {
    if (!(name in entry) || (allowed !== null && !allowed.has(name))) continue;
    const type = contentType.attributes[name]?.type;
    fields[name] = type === 'component' || type === 'dynamiczone' ? withoutIds(entry[name]) : entry[name];
  }
  const localizations = ((entry[LOCALIZATIONS_ATTRIBUTE] as Entity[] | undefined) ?? []).map((other) => other);
  const own: Record<string, unknown> = { id: entry.id, [LOCALE_ATTRIBUTE]: entry[LOCALE_ATTRIBUTE] };
  if ('publishedAt' in entry) own.publishedAt = entry.publishedAt;
  return { nonLocalizedFields: fields, localizations: [...localizations, own] };
}

/** The type's attribute order (Strapi picks the fields in declaration order). */
function byDeclaration(order: string[]): (a: string, b: string) => number {
  return (a, b) => order.indexOf(a) - order.indexOf(b);
}

/** A component's value without the ids of its rows (a new localization gets components of its own). */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (!isRecord(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (key !== 'id') copy[key] = withoutIds(item);
  return copy;
}
