/**
 * `POST /content-manager/uid/generate` and `/uid/check-availability` (Strapi 4.26.2's `uid` controller and
 * service): a uid field's value made from its target field with `@sindresorhus/slugify` — the package and version
 * Strapi's content manager uses, so the panel proposes the slug Strapi would (its transliteration covers many
 * scripts; upload's own slugify only makes file hashes) — and made unique against the stored values (`-1`, `-2`, …);
 * availability is a count of equal values.
 */
import slugify from '@sindresorhus/slugify';
import type Koa from 'koa';
import type { App, KernelContext } from '@tessera/core';
import { ValidationError } from '@tessera/errors';
import { overBudget } from '../budget';
import { isPlainObject } from '../layouts/configuration';
import { bodyErrors, type BodyField } from './body';

/** Longest value looked up or made: a uid column is a string column (255 in Strapi's tables). */
const MAX_VALUE_LENGTH = 255;
/** A uid body carries the entry being edited (`data`): bounded like an entry. */
const MAX_UID_BODY_BYTES = 256 * 1024;

const GENERATE: BodyField[] = [
  { name: 'contentTypeUID', type: 'string' },
  { name: 'field', type: 'string' },
  { name: 'data', type: 'object' },
];
const CHECK: BodyField[] = [
  { name: 'contentTypeUID', type: 'string' },
  { name: 'field', type: 'string' },
  { name: 'value', type: 'string', matches: /^[A-Za-z0-9-_.~]*$/ },
];

interface UidAttribute {
  targetField?: string;
  default?: unknown;
  options?: slugify.Options;
}

/** The uid attribute `field` of `uid`, or Strapi's refusal. */
function uidAttribute(app: App, uid: string, field: string): UidAttribute {
  const contentType = app.contentTypes.find(uid);
  if (!contentType || contentType.bareTable === true) throw new ValidationError('ContentType not found');
  const attribute = Object.prototype.hasOwnProperty.call(contentType.attributes, field) ? contentType.attributes[field] : undefined;
  if (!attribute || attribute.type !== 'uid') throw new ValidationError(`${field} must be a valid \`uid\` attribute`);
  const options = (attribute as { options?: unknown }).options;
  return { targetField: attribute.targetField, default: attribute.default, options: isPlainObject(options) ? (options as slugify.Options) : undefined };
}

function checkedBody(ctx: Koa.Context, fields: BodyField[]): Record<string, unknown> {
  const body: unknown = (ctx.request as Koa.Request & { body?: unknown }).body;
  const over = overBudget(body, MAX_UID_BODY_BYTES);
  if (over) throw new ValidationError(over);
  const issues = bodyErrors(body, fields);
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  return body as Record<string, unknown>;
}

/** lodash's `isEmpty` on a target field's value: only a non-empty string (or collection) is used. */
const hasText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

export async function findUniqueUID(app: App, uid: string, field: string, value: string): Promise<string> {
  const rows = await app.db.query(uid).findMany({ where: { [field]: { $contains: value } }, select: [field] });
  const taken = new Set(rows.map((row) => row[field]));
  if (taken.size === 0) return value;
  let index = 1;
  while (taken.has(`${value}-${index}`)) index += 1;
  return `${value}-${index}`;
}

export const UID_CONTROLLERS = {
  uid: ({ app }: KernelContext) => ({
    async generateUID(ctx: Koa.Context): Promise<void> {
      const { contentTypeUID, field, data } = checkedBody(ctx, GENERATE) as { contentTypeUID: string; field: string; data: Record<string, unknown> };
      const attribute = uidAttribute(app, contentTypeUID, field);
      const target = attribute.targetField === undefined ? undefined : data[attribute.targetField];
      const fallback = typeof attribute.default === 'string' && attribute.default !== '' ? attribute.default : app.contentTypes.find(contentTypeUID)!.info.singularName;
      const source = hasText(target) ? target : fallback;
      const slug = slugify(source.slice(0, MAX_VALUE_LENGTH), attribute.options);
      ctx.body = { data: await findUniqueUID(app, contentTypeUID, field, slug) };
    },
    async checkUIDAvailability(ctx: Koa.Context): Promise<void> {
      const { contentTypeUID, field, value } = checkedBody(ctx, CHECK) as { contentTypeUID: string; field: string; value: string };
      uidAttribute(app, contentTypeUID, field);
      if (value.length > MAX_VALUE_LENGTH) throw ValidationError.forField(['value'], `value must be at most ${MAX_VALUE_LENGTH} characters`);
      const isAvailable = (await app.db.query(contentTypeUID).count({ where: { [field]: value } })) === 0;
      ctx.body = { isAvailable, suggestion: isAvailable ? null : await findUniqueUID(app, contentTypeUID, field, value) };
    },
  }),
};
