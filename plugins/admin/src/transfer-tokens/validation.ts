/**
 * The transfer-token bodies as `@strapi/admin` 4.26.2 checks them (`transferTokenCreationSchema`,
 * `transferTokenUpdateSchema`, strict, no unknown keys), with its messages (recorded). Create picks its four fields
 * from the body, name and description trimmed, so unknown keys never reach the check; update takes the body whole
 * (a lifespan cannot be changed after creation).
 */
import { lodashTrim, minItems, minLength, required, type BodyRules } from '../body-rules';
import { LIFESPANS } from '../api-tokens/validation';

/** Strapi's `TRANSFER_TOKEN_TYPE`: what a token may do, each a permission row. */
export const TRANSFER_PERMISSIONS = ['push', 'pull'] as const;

/** Strapi's transfer lifespans are the API tokens' (7, 30, 90 days, or null), printed the same way. */
const lifespan = { values: LIFESPANS, message: `lifespan must be one of the following values: , ${LIFESPANS.join(', ')}` };

export const CREATE_TRANSFER_TOKEN: BodyRules = {
  noUnknown: true,
  fields: [
    { name: 'name', type: 'string', tests: [minLength(1), required] },
    { name: 'description', type: 'string' },
    { name: 'permissions', type: 'string[]', itemsOneOf: TRANSFER_PERMISSIONS, tests: [minItems(1), required] },
    // Strapi's `min(1)` is never reached: every allowed lifespan is above it.
    { name: 'lifespan', type: 'number', nullable: true, oneOf: lifespan },
  ],
};

export const UPDATE_TRANSFER_TOKEN: BodyRules = {
  noUnknown: true,
  fields: [
    { name: 'name', type: 'string', tests: [minLength(1)] },
    { name: 'description', type: 'string', nullable: true },
    { name: 'permissions', type: 'string[]', nullable: true, itemsOneOf: TRANSFER_PERMISSIONS, tests: [minItems(1)] },
  ],
};

export interface TransferTokenAttributes {
  name?: string;
  description?: string | null;
  permissions?: string[] | null;
  lifespan?: number | null;
}

/** What Strapi's create handler keeps of the body before validating: four fields, name and description trimmed. */
export function transferCreationAttributes(body: unknown): Record<string, unknown> {
  const source = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  return { name: lodashTrim(source.name), description: lodashTrim(source.description), permissions: source.permissions, lifespan: source.lifespan };
}

/** Strapi's update handler: the body whole, its name trimmed when given, its description when given (null too). */
export function transferUpdateAttributes(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const attributes: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  if ('name' in attributes) attributes.name = lodashTrim(attributes.name);
  if ('description' in attributes) attributes.description = lodashTrim(attributes.description);
  return attributes;
}
