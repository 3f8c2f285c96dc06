/**
 * Which fields of a localized type the signed-in admin may copy into a new
 * localization in `locale` (Strapi's rule): the first-level fields of its
 * roles' content-manager read and create permissions on the type whose
 * `locales` include that locale. `null`: every field (a Super Admin).
 */
import type Koa from 'koa';
import type { App } from '@tessera/core';
import { adminAbility } from '@tessera/plugin-admin';

const ACTIONS = new Set(['plugin::content-manager.explorer.read', 'plugin::content-manager.explorer.create']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

export async function permittedFields(_app: App, ctx: Koa.Context, model: string, locale: string): Promise<Set<string> | null> {
  const ability = adminAbility(ctx);
  if (ability.isSuperAdmin) return null;
  const fields = new Set<string>();
  for (const permission of ability.permissions) {
    if (!ACTIONS.has(permission.action) || permission.subject !== model) continue;
    const properties = isRecord(permission.properties) ? permission.properties : {};
    if (!strings(properties.locales).includes(locale)) continue;
    for (const path of strings(properties.fields)) fields.add(path.split('.')[0]);
  }
  return fields;
}
