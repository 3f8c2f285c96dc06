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
import type { Attribute } from '@tessera/database';
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
  // Strapi's nested populate of the shared links: their media, components and zones, all the way down.
  const populate = [...links.flatMap((name) => [name, ...nestedPaths(app, contentType.attributes[name], name, 0)]), LOCALIZATIONS_ATTRIBUTE];
  const entry = await app.db.query(request.model).findOne({ ...(id === null ? { orderBy: { id: 'asc' } } : { where: { id } }), populate });
  if (!entry) throw new NotFoundError();
  const allowed = await permittedFields(app, ctx, request.model, request.locale);
  const fields: Record<string, unknown> = {};
  for (const name of [...columns, ...links].sort(byDeclaration(Object.keys(contentType.attributes)))) {
    if (!(name in entry) || (allowed !== null && !allowed.has(name))) continue;
    fields[name] = withoutRowIds(app, contentType.attributes[name], entry[name]);
  }
  const localizations = ((entry[LOCALIZATIONS_ATTRIBUTE] as Entity[] | undefined) ?? []).map((other) => other);
  const own: Record<string, unknown> = { id: entry.id, [LOCALE_ATTRIBUTE]: entry[LOCALE_ATTRIBUTE] };
  if ('publishedAt' in entry) own.publishedAt = entry.publishedAt;
  return { nonLocalizedFields: fields, localizations: [...localizations, own] };
}

/** Components nest a bounded number of levels (Strapi's own schemas never go this deep). */
const MAX_DEPTH = 10;

/** The dotted paths below a shared link that Strapi populates too: a component's (or zone's components') media, components and zones. */
function nestedPaths(app: App, attribute: Attribute | undefined, prefix: string, depth: number): string[] {
  if (!attribute || depth >= MAX_DEPTH) return [];
  const uids = attribute.type === 'component' ? [attribute.component] : attribute.type === 'dynamiczone' ? attribute.components : [];
  const paths: string[] = [];
  for (const uid of uids) {
    const component = app.components.find(uid);
    for (const [name, inner] of Object.entries(component?.attributes ?? {})) {
      if (inner.type !== 'media' && inner.type !== 'component' && inner.type !== 'dynamiczone') continue;
      const path = `${prefix}.${name}`;
      if (!paths.includes(path)) paths.push(path, ...nestedPaths(app, inner, path, depth + 1));
    }
  }
  return paths;
}

/** The type's attribute order (Strapi picks the fields in declaration order). */
function byDeclaration(order: string[]): (a: string, b: string) => number {
  return (a, b) => order.indexOf(a) - order.indexOf(b);
}

/**
 * A shared value without the ids of its component rows (a new localization gets rows of its own), at every level;
 * media keep theirs (they are the same files), as Strapi's `removeIds` leaves them.
 */
function withoutRowIds(app: App, attribute: Attribute | undefined, value: unknown): unknown {
  if (!attribute || (attribute.type !== 'component' && attribute.type !== 'dynamiczone')) return value;
  if (Array.isArray(value)) return value.map((item) => withoutRowIds(app, attribute, item));
  if (!isRecord(value)) return value;
  const uid = attribute.type === 'component' ? attribute.component : value.__component;
  const component = typeof uid === 'string' ? app.components.find(uid) : undefined;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (key !== 'id') copy[key] = withoutRowIds(app, component?.attributes[key], item);
  return copy;
}
