/**
 * The admin locale bodies, checked as Strapi 4.26.2's i18n plugin checks them
 * (its yup schemas: every failing field at once, "N errors occurred",
 * `noUnknown` last at the root): a new locale's `code` is one of the ISO list
 * (iso-locales.ts), `isDefault` a boolean, `name` at most 50 characters; an
 * update may change only `name` and `isDefault`.
 */
import { printValue, ValidationError, type ValidationIssue } from '@tessera/errors';
import { isoLocalesService } from '../iso-locales';

const issue = (path: string[], message: string): ValidationIssue => ({ path, message, name: 'ValidationError' });
const typeMessage = (path: string, type: string, value: unknown) => `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) throw ValidationError.forField([], 'this is a required field');
  if (!isRecord(body)) throw ValidationError.forField([], typeMessage('this', 'object', body));
  return body;
}

function unknownKeys(issues: ValidationIssue[], body: Record<string, unknown>, known: string[]): void {
  const extra = Object.keys(body).filter((key) => !known.includes(key));
  if (extra.length > 0) issues.push(issue([], `this field has unspecified keys: ${extra.join(', ')}`));
}

function checkName(issues: ValidationIssue[], name: unknown, min: number): void {
  if (name === undefined || name === null) return;
  if (typeof name !== 'string') issues.push(issue(['name'], typeMessage('name', 'string', name)));
  else if (name.length < min) issues.push(issue(['name'], `name must be at least ${min} characters`));
  else if (name.length > 50) issues.push(issue(['name'], 'name must be at most 50 characters'));
}

function checkIsDefault(issues: ValidationIssue[], value: unknown, isRequired: boolean): void {
  if (value === undefined || value === null) {
    if (isRequired) issues.push(issue(['isDefault'], 'isDefault is a required field'));
  } else if (typeof value !== 'boolean') issues.push(issue(['isDefault'], typeMessage('isDefault', 'boolean', value)));
}

export interface NewLocale {
  code: string;
  name: string | null;
  isDefault: boolean;
}

export function checkCreateLocale(raw: unknown): NewLocale {
  const body = objectBody(raw);
  const issues: ValidationIssue[] = [];
  checkName(issues, body.name, 0);
  const { code } = body;
  if (code === undefined || code === null || code === '') issues.push(issue(['code'], 'code is a required field'));
  else if (typeof code !== 'string') issues.push(issue(['code'], typeMessage('code', 'string', code)));
  else if (!isoLocalesService().findIsoLocale(code)) {
    const codes = isoLocalesService().getIsoLocales().map((locale) => locale.code);
    issues.push(issue(['code'], `code must be one of the following values: ${codes.join(', ')}`));
  }
  checkIsDefault(issues, body.isDefault, true);
  unknownKeys(issues, body, ['name', 'code', 'isDefault']);
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  return { code: code as string, name: typeof body.name === 'string' && body.name !== '' ? body.name : null, isDefault: body.isDefault as boolean };
}

export function checkUpdateLocale(raw: unknown): { name?: string | null; isDefault?: boolean } {
  const body = objectBody(raw);
  const issues: ValidationIssue[] = [];
  checkName(issues, body.name, 1);
  checkIsDefault(issues, body.isDefault, false);
  unknownKeys(issues, body, ['name', 'isDefault']);
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  const out: { name?: string | null; isDefault?: boolean } = {};
  if (body.name !== undefined) out.name = body.name as string | null;
  if (typeof body.isDefault === 'boolean') out.isDefault = body.isDefault;
  return out;
}

export interface NonLocalizedRequest {
  model: string;
  id: unknown;
  locale: string;
}

/** `get-non-localized-fields`: `model` and `locale` strings, an `id` unless the model is a single type. */
export function checkNonLocalizedRequest(raw: unknown, isSingleType: (model: string) => boolean): NonLocalizedRequest {
  const body = objectBody(raw);
  const issues: ValidationIssue[] = [];
  const { model, id, locale } = body;
  if (model === undefined || model === null || model === '') issues.push(issue(['model'], 'model is a required field'));
  else if (typeof model !== 'string') issues.push(issue(['model'], typeMessage('model', 'string', model)));
  const single = typeof model === 'string' && isSingleType(model);
  if (id === undefined || id === null) {
    if (!single) issues.push(issue(['id'], 'id is a required field'));
  } else if (!(typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id) && id >= 0))) issues.push(issue(['id'], typeMessage('id', 'strapiID', id)));
  if (locale === undefined || locale === null || locale === '') issues.push(issue(['locale'], 'locale is a required field'));
  else if (typeof locale !== 'string') issues.push(issue(['locale'], typeMessage('locale', 'string', locale)));
  unknownKeys(issues, body, ['model', 'id', 'locale']);
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  return { model: model as string, id, locale: locale as string };
}
