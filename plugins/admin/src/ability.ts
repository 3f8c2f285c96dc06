/**
 * The admin ability (contract.ts) built from stored permissions, as Strapi's
 * permission engine builds its CASL ability: each permission's conditions
 * are evaluated for the user (any `true` → unrestricted, all `false` → the
 * permission does not apply, else their queries OR-ed); a permission whose
 * condition is not registered does not apply (Strapi drops the unknown
 * condition and grants without it; Tessera fails closed). i18n's
 * `properties.locales` restricts a localized subject's entries to those
 * locales (`{ locale: { $in } }`), as i18n's permission hook does.
 */
import type { AdminConditionProvider, AdminConditionUser } from '@tessera/core';
import { toFilters, type Filters } from './conditions';
import { markAbility, type AdminAbility, type AdminPermission, type Permitted, type SubjectAccess } from './contract';

/** One permission, ready to answer: its conditions already evaluated for this user. */
interface Compiled {
  action: string;
  subject: string | null;
  /** null: every field. */
  fields: readonly string[] | null;
  /** null: every locale. */
  locales: readonly string[] | null;
  /** undefined: every entry. */
  filters: Filters | undefined;
}

export interface AbilityInput {
  user: AdminConditionUser;
  isSuperAdmin: boolean;
  permissions: readonly AdminPermission[];
  conditions: Pick<AdminConditionProvider, 'get'>;
  /** Is this subject localized (i18n): its permissions' `locales` then filter entries by locale. */
  isLocalized(subject: string): boolean;
  /** The ids of the admin users matching a filter on `admin::user` (a condition about the creator's roles). */
  adminUserIds(where: Filters): Promise<number[]>;
  /** Is the action registered (and, given a subject, one of its subjects)? What a Super Admin may do. */
  isRegistered(action: string, subject?: string): boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const stringList = (value: unknown): string[] | null => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : null);

export async function buildAbility(input: AbilityInput): Promise<AdminAbility> {
  const compiled: Compiled[] = [];
  if (!input.isSuperAdmin) {
    for (const permission of input.permissions) {
      const entry = await compile(permission, input);
      if (entry) compiled.push(entry);
    }
  }
  return markAbility(new Ability(input, compiled));
}

async function compile(permission: AdminPermission, input: AbilityInput): Promise<Compiled | null> {
  const properties = isRecord(permission.properties) ? permission.properties : {};
  const conditionIds = stringList(permission.conditions) ?? [];
  let filters: Filters | undefined;
  if (conditionIds.length > 0) {
    const queries: Filters[] = [];
    let unrestricted = false;
    for (const id of conditionIds) {
      const condition = input.conditions.get(id);
      if (!condition) continue;
      const result = await condition.handler(input.user);
      if (result === true) unrestricted = true;
      else if (isRecord(result)) queries.push(await authorshipAsColumns(toFilters(result), input));
    }
    if (!unrestricted && queries.length === 0) return null;
    if (!unrestricted) filters = queries.length === 1 ? queries[0] : { $or: queries };
  }
  const locales = stringList(properties.locales);
  const subject = permission.subject ?? null;
  const localized = subject !== null && locales !== null && input.isLocalized(subject);
  if (localized) {
    const byLocale = { locale: { $in: [...locales] } };
    filters = filters ? { $and: [filters, byLocale] } : byLocale;
  }
  return { action: permission.action, subject, fields: stringList(properties.fields), locales: localized ? locales : null, filters };
}

const AUTHORSHIP = new Set(['createdBy', 'updatedBy']);

/**
 * Tessera keeps Strapi's `created_by_id`/`updated_by_id` as columns (`createdBy`/`updatedBy`), not relations: a
 * condition about the creator (`createdBy: { id: … }`, `createdBy: { roles: … }`) becomes a filter on the column,
 * the matching admins' ids found once here when it asks about more than the id.
 */
async function authorshipAsColumns(filters: Filters, input: AbilityInput): Promise<Filters> {
  const out: Filters = {};
  for (const [key, value] of Object.entries(filters)) {
    if ((key === '$or' || key === '$and') && Array.isArray(value)) {
      out[key] = await Promise.all(value.map((item: Filters) => authorshipAsColumns(item, input)));
    } else if (AUTHORSHIP.has(key) && isRecord(value) && !Object.keys(value).every((name) => name.startsWith('$'))) {
      const keys = Object.keys(value);
      out[key] = keys.length === 1 && keys[0] === 'id' && isRecord(value.id) ? value.id : { $in: await input.adminUserIds(value) };
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** A field is listed, or is inside one listed (`seo` lists `seo.metaTitle`'s parent). */
function fieldPermitted(fields: readonly string[] | null, field: string): boolean {
  return fields === null || fields.some((listed) => listed === field || field.startsWith(`${listed}.`));
}

function union(lists: ReadonlyArray<readonly string[] | null>): Permitted {
  if (lists.some((list) => list === null)) return 'all';
  return [...new Set(lists.flatMap((list) => list ?? []))];
}

const EVERYTHING: SubjectAccess = Object.freeze({ filters: undefined, fields: 'all', locales: 'all' });

class Ability implements AdminAbility {
  readonly userId: number;
  readonly roleIds: readonly number[];
  readonly isSuperAdmin: boolean;
  readonly permissions: readonly AdminPermission[];

  constructor(private readonly input: AbilityInput, private readonly compiled: readonly Compiled[]) {
    this.userId = input.user.id;
    this.roleIds = input.user.roles.map((role) => role.id);
    this.isSuperAdmin = input.isSuperAdmin;
    this.permissions = input.isSuperAdmin ? [] : input.permissions;
  }

  can(action: string, subject?: string, field?: string): boolean {
    if (this.isSuperAdmin) return this.input.isRegistered(action, subject);
    // A subjectless permission (CASL's `all`) applies to every subject; a check without a subject asks for one.
    return this.compiled.some(
      (entry) => entry.action === action && (entry.subject === null || entry.subject === subject) && (field === undefined || fieldPermitted(entry.fields, field)),
    );
  }

  access(action: string, subject: string): SubjectAccess | null {
    if (this.isSuperAdmin) return this.input.isRegistered(action, subject) ? EVERYTHING : null;
    const matching = this.compiled.filter((entry) => entry.action === action && (entry.subject === null || entry.subject === subject));
    if (matching.length === 0) return null;
    const restricted = matching.every((entry) => entry.filters !== undefined);
    const filters = !restricted ? undefined : matching.length === 1 ? matching[0].filters : { $or: matching.map((entry) => entry.filters!) };
    return { filters, fields: union(matching.map((entry) => entry.fields)), locales: union(matching.map((entry) => entry.locales)) };
  }

  fieldsFor(action: string, subject: string): Permitted {
    return this.access(action, subject)?.fields ?? [];
  }

  localesFor(action: string, subject: string): Permitted {
    return this.access(action, subject)?.locales ?? [];
  }
}
