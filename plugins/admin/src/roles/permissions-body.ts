/**
 * The body of `PUT /admin/roles/:id/permissions`, checked as `@strapi/admin`
 * 4.26.2's `updatePermissions` yup schema checks it (its messages and paths):
 * every action registered, a subject only where the action has subjects and
 * one of them, properties only those the action takes, `fields` without
 * duplicates or a field listed with its own parent, no two permissions on one
 * action and subject, no unknown key. Conditions that are not registered are
 * dropped when stored (`knownConditions`), as Strapi drops them. Where Strapi 4.26.2 crashes (a duplicate
 * field: its check throws outside yup), Tessera answers the 400 it meant.
 * Budget: at most MAX_PERMISSIONS permissions in one body.
 */
import type { AdminActionProvider, AdminConditionProvider } from '@tessera/core';
import { printValue, ValidationError, type ValidationIssue } from '@tessera/errors';
import { isPlainObject } from '../validation';
import type { PermissionInput } from '../permissions/store';

export const MAX_PERMISSIONS = 2000;
const PERMISSION_KEYS = ['action', 'actionParameters', 'subject', 'properties', 'conditions'];

const issue = (path: Array<string | number>, message: string): ValidationIssue => ({ path: path.map(String), message, name: 'ValidationError' });
const typeError = (path: string, type: string, value: unknown) => `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`;

/** Strapi's `sanitizeConditions`: a permission is stored with its registered conditions only. */
export function knownConditions(conditions: Pick<AdminConditionProvider, 'has'>): (permission: PermissionInput) => PermissionInput {
  return (permission) => ({ ...permission, conditions: (permission.conditions ?? []).filter((id) => conditions.has(id)) });
}

export function validatePermissionsBody(body: unknown, actions: AdminActionProvider): PermissionInput[] {
  const value = body === undefined || body === null ? {} : body;
  if (!isPlainObject(value)) throw ValidationError.fromIssues([issue([], typeError('this', 'object', value))]);
  const issues: ValidationIssue[] = [];
  const list = value.permissions;
  if (list === undefined || list === null) issues.push(issue(['permissions'], 'permissions is a required field'));
  else if (!Array.isArray(list)) issues.push(issue(['permissions'], typeError('permissions', 'array', list)));
  else if (list.length > MAX_PERMISSIONS) issues.push(issue(['permissions'], `permissions field must have less than or equal to ${MAX_PERMISSIONS} items`));
  else list.forEach((item, index) => issues.push(...permissionIssues(item, index, actions)));
  const unknown = Object.keys(value).filter((key) => key !== 'permissions');
  if (unknown.length > 0) issues.push(issue([], `this field has unspecified keys: ${unknown.join(', ')}`));
  if (issues.length === 0 && Array.isArray(list) && hasDuplicates(list as PermissionInput[])) {
    issues.push(issue(['permissions'], 'Some permissions are duplicated (same action and subject)'));
  }
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  return (list as Array<Record<string, unknown>>).map((item) => ({
    action: item.action as string,
    subject: (item.subject as string | null | undefined) ?? null,
    properties: (item.properties as Record<string, unknown> | undefined) ?? {},
    conditions: (item.conditions as string[] | undefined) ?? [],
    actionParameters: (item.actionParameters as Record<string, unknown> | null | undefined) ?? {},
  }));
}

function hasDuplicates(list: readonly PermissionInput[]): boolean {
  return list.some((a, index) => list.slice(index + 1).some((b) => a.action === b.action && (a.subject ?? null) === (b.subject ?? null)));
}

function permissionIssues(item: unknown, index: number, actions: AdminActionProvider): ValidationIssue[] {
  const at = `permissions[${index}]`;
  const base: Array<string | number> = ['permissions', index];
  if (!isPlainObject(item)) return [issue(base, typeError(at, 'object', item))];
  const issues: ValidationIssue[] = [];
  const action = typeof item.action === 'string' ? actions.get(item.action) : undefined;
  if (item.action === undefined || item.action === null || item.action === '') issues.push(issue([...base, 'action'], `${at}.action is a required field`));
  else if (typeof item.action !== 'string') issues.push(issue([...base, 'action'], typeError(`${at}.action`, 'string', item.action)));
  else if (!action || !actions.has(item.action)) issues.push(issue([...base, 'action'], 'action is not an existing permission action'));
  if (item.actionParameters !== undefined && item.actionParameters !== null && !isPlainObject(item.actionParameters)) {
    issues.push(issue([...base, 'actionParameters'], typeError(`${at}.actionParameters`, 'object', item.actionParameters)));
  }
  const subject = item.subject;
  if (subject !== undefined && subject !== null && typeof subject !== 'string') issues.push(issue([...base, 'subject'], typeError(`${at}.subject`, 'string', subject)));
  else if (action && !subjectValid(action.subjects, subject ?? null)) issues.push(issue([...base, 'subject'], 'Invalid subject submitted'));
  issues.push(...propertiesIssues(item.properties, action, at, base));
  const conditions = item.conditions;
  if (conditions !== undefined && (!Array.isArray(conditions) || conditions.some((id) => typeof id !== 'string'))) {
    issues.push(issue([...base, 'conditions'], typeError(`${at}.conditions`, 'array', conditions)));
  }
  const unknown = Object.keys(item).filter((key) => !PERMISSION_KEYS.includes(key));
  if (unknown.length > 0) issues.push(issue(base, `${at} field has unspecified keys: ${unknown.join(', ')}`));
  return issues;
}

function subjectValid(subjects: string[] | undefined, subject: string | null): boolean {
  if (subjects === undefined || subjects === null) return subject === null;
  return subject !== null && subjects.includes(subject);
}

type Action = NonNullable<ReturnType<AdminActionProvider['get']>>;

function propertiesIssues(properties: unknown, action: Action | undefined, at: string, base: Array<string | number>): ValidationIssue[] {
  if (properties === undefined || properties === null) return [];
  const path = [...base, 'properties'];
  if (!isPlainObject(properties)) return [issue(path, typeError(`${at}.properties`, 'object', properties))];
  if (!action) return [];
  const allowed = action.options.applyToProperties;
  const keys = Object.keys(properties);
  if (keys.length > 0 && (!Array.isArray(allowed) || !keys.every((key) => allowed.includes(key)))) return [issue(path, `Invalid property set at ${at}.properties`)];
  for (const key of keys) {
    const list = properties[key];
    if (list !== null && list !== undefined && (!Array.isArray(list) || list.some((entry) => typeof entry !== 'string'))) {
      return [issue([...path, key], typeError(`${at}.properties.${key}`, 'array', list))];
    }
  }
  const fields = properties.fields as string[] | null | undefined;
  if (!Array.isArray(fields)) return [];
  const nested = fields.some((a, index) => fields.slice(index + 1).some((b) => b.startsWith(`${a}.`) || a.startsWith(`${b}.`)));
  if (nested) return [issue([...path, 'fields'], 'Fields format are incorrect (bad nesting).')];
  if (new Set(fields).size !== fields.length) return [issue([...path, 'fields'], 'Fields format are incorrect (duplicates).')];
  return [];
}
