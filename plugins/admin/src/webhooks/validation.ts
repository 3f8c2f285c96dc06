/**
 * The webhook bodies as `@strapi/admin` 4.26.2 checks them
 * (`webhookValidator`, and `isEnabled` on update): name, url, headers and
 * events required, nothing else. Two differences, both refusals of what
 * could never be delivered: the URL must be http(s) (Strapi takes any
 * scheme), and header values must be strings (the store refuses others).
 * Where the server may not send at all is the store's check
 * (core's webhooks/target-policy.ts), made when the webhook is saved.
 */
import { required, type BodyRules, type FieldTest } from '../body-rules';

const MAX_URL = 2048;

const httpUrl: FieldTest = (value, name) => {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && value.length <= MAX_URL && url.hostname !== '') return null;
  } catch {
    // not a URL: refused below
  }
  return `${name} must be a valid URL`;
};

const fields: BodyRules['fields'] = [
  { name: 'name', type: 'string', tests: [required] },
  { name: 'url', type: 'string', tests: [(value, name) => (value === undefined ? null : httpUrl(value, name)), required] },
  { name: 'headers', type: 'object', tests: [required] },
  { name: 'events', type: 'string[]', tests: [required] },
];

export const CREATE_WEBHOOK: BodyRules = { noUnknown: true, fields };
export const UPDATE_WEBHOOK: BodyRules = { noUnknown: true, fields: [...fields, { name: 'isEnabled', type: 'boolean' }] };

export interface WebhookBody {
  name: string;
  url: string;
  headers: Record<string, string>;
  events: string[];
  isEnabled?: boolean;
}
