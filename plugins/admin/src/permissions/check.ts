/**
 * `POST /admin/permissions/check` (Strapi 4.26.2's `permission.check`): for
 * each `{ action, subject?, field? }` of the body, may the signed-in admin do
 * it (`userAbility.can`)? Answered as a list of booleans. The body is checked
 * as Strapi's yup schema checks it; where Strapi answers 500 (no
 * `permissions` at all) Tessera answers the 400 it means. At most
 * MAX_CHECKS checks in one body.
 */
import type Koa from 'koa';
import { printValue, ValidationError, type ValidationIssue } from '@tessera/errors';
import { requestBody } from '@tessera/core';
import { adminAbility } from '../contract';
import { isPlainObject } from '../validation';

export const MAX_CHECKS = 1000;
const KEYS = ['action', 'subject', 'field'];

const issue = (path: Array<string | number>, message: string): ValidationIssue => ({ path: path.map(String), message, name: 'ValidationError' });
const typeError = (path: string, type: string, value: unknown) => `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`;

interface Check {
  action: string;
  subject?: string | null;
  field?: string;
}

function checks(body: unknown): Check[] {
  const value = isPlainObject(body) ? body : {};
  const list = value.permissions;
  if (list === undefined || list === null) throw ValidationError.fromIssues([issue(['permissions'], 'permissions is a required field')]);
  if (!Array.isArray(list)) throw ValidationError.fromIssues([issue(['permissions'], typeError('permissions', 'array', list))]);
  if (list.length > MAX_CHECKS) throw ValidationError.fromIssues([issue(['permissions'], `permissions field must have less than or equal to ${MAX_CHECKS} items`)]);
  const issues: ValidationIssue[] = [];
  list.forEach((item: unknown, index) => {
    const at = `permissions[${index}]`;
    if (!isPlainObject(item)) return void issues.push(issue(['permissions', index], typeError(at, 'object', item)));
    if (item.action === undefined || item.action === null || item.action === '') issues.push(issue(['permissions', index, 'action'], `${at}.action is a required field`));
    else if (typeof item.action !== 'string') issues.push(issue(['permissions', index, 'action'], typeError(`${at}.action`, 'string', item.action)));
    if (item.subject !== undefined && item.subject !== null && typeof item.subject !== 'string') issues.push(issue(['permissions', index, 'subject'], typeError(`${at}.subject`, 'string', item.subject)));
    if (item.field !== undefined && typeof item.field !== 'string') issues.push(issue(['permissions', index, 'field'], typeError(`${at}.field`, 'string', item.field)));
    const unknown = Object.keys(item).filter((key) => !KEYS.includes(key));
    if (unknown.length > 0) issues.push(issue(['permissions', index], `${at} field has unspecified keys: ${unknown.join(', ')}`));
  });
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  return list as Check[];
}

export async function checkPermissions(ctx: Koa.Context): Promise<void> {
  const ability = adminAbility(ctx);
  ctx.body = { data: checks(requestBody(ctx)).map(({ action, subject, field }) => ability.can(action, subject ?? undefined, field)) };
}
