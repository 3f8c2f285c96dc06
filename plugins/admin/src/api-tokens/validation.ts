/**
 * The API-token bodies as `@strapi/admin` 4.26.2 checks them
 * (`apiTokenCreationSchema`, `apiTokenUpdateSchema`), with its messages — the
 * list of lifespans printed as Strapi prints it, an empty first item
 * included. Create picks its five fields from the body (unknown keys are
 * ignored); update takes the body whole and refuses unknown keys (a lifespan
 * cannot be changed after creation).
 */
import { lodashTrim, minLength, required, type BodyRules } from '../body-rules';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Strapi's `API_TOKEN_LIFESPANS`: 7, 30 and 90 days (or none: null). */
export const LIFESPANS = [7 * DAY_MS, 30 * DAY_MS, 90 * DAY_MS];
export const TOKEN_TYPES = ['read-only', 'full-access', 'custom'];

const type = { values: TOKEN_TYPES, message: `type must be one of the following values: ${TOKEN_TYPES.join(', ')}` };
const lifespan = { values: LIFESPANS, message: `lifespan must be one of the following values: , ${LIFESPANS.join(', ')}` };

export const CREATE_TOKEN: BodyRules = {
  noUnknown: true,
  fields: [
    { name: 'name', type: 'string', tests: [minLength(1), required] },
    { name: 'description', type: 'string' },
    { name: 'type', type: 'string', oneOf: type, tests: [required] },
    { name: 'permissions', type: 'string[]', nullable: true },
    // Strapi's `min(1)` is never reached: every allowed lifespan is above it.
    { name: 'lifespan', type: 'number', nullable: true, oneOf: lifespan },
  ],
};

export const UPDATE_TOKEN: BodyRules = {
  noUnknown: true,
  fields: [
    { name: 'name', type: 'string', tests: [minLength(1)] },
    { name: 'description', type: 'string', nullable: true },
    { name: 'type', type: 'string', oneOf: type },
    { name: 'permissions', type: 'string[]', nullable: true },
  ],
};

export interface TokenAttributes {
  name?: string;
  description?: string;
  type?: string;
  permissions?: string[] | null;
  lifespan?: number | null;
}

/** What Strapi's create handler keeps of the body before validating: the five fields, name and description trimmed. */
export function creationAttributes(body: unknown): Record<string, unknown> {
  const source = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return { name: lodashTrim(source.name), description: lodashTrim(source.description), type: source.type, permissions: source.permissions, lifespan: source.lifespan };
}

/** Strapi's update handler: the body whole, its name trimmed when given and its description when given (or null). */
export function updateAttributes(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const attributes: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  if ('name' in attributes) attributes.name = lodashTrim(attributes.name);
  if ('description' in attributes) attributes.description = lodashTrim(attributes.description);
  return attributes;
}
