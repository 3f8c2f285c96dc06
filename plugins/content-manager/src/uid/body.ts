/**
 * The uid routes' bodies checked as Strapi's yup schemas check them (`validateYupSchema`: strict, every error at
 * once, each with its path): required strings and a required object, and check-availability's value pattern.
 */
import { printValue, type ValidationIssue } from '@tessera/errors';
import { isPlainObject } from '../layouts/configuration';

export interface BodyField {
  name: string;
  type: 'string' | 'object';
  matches?: RegExp;
}

const issue = (path: string[], message: string): ValidationIssue => ({ path, message, name: 'ValidationError' });

function typeMessage(path: string, type: string, value: unknown): string {
  return `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`;
}

function fieldIssue(field: BodyField, value: unknown): ValidationIssue | undefined {
  const path = [field.name];
  const isType = field.type === 'string' ? typeof value === 'string' : isPlainObject(value);
  if (value !== undefined && !isType) return issue(path, typeMessage(field.name, field.type, value));
  if (field.matches && typeof value === 'string' && !field.matches.test(value)) return issue(path, `${field.name} must match the following: "${field.matches}"`);
  // yup's `required`: absent, or an empty string.
  if (value === undefined || value === '') return issue(path, `${field.name} is a required field`);
  return undefined;
}

export function bodyErrors(body: unknown, fields: BodyField[]): ValidationIssue[] {
  if (!isPlainObject(body)) return [issue([], typeMessage('this', 'object', body))];
  return fields.map((field) => fieldIssue(field, body[field.name])).filter((found): found is ValidationIssue => found !== undefined);
}
