/**
 * Strapi v4's `sendTemplatedEmail` rendering: `subject`, `text` and `html`
 * must all be given (Strapi's message names the missing ones), and each
 * `<%= path %>` whose path is a key of the data, at any depth (`user`,
 * `user.email`), becomes that value's text. Anything else stays as written:
 * Strapi's strict interpolation admits only the data's own keys, and no
 * template code runs here (Strapi's lodash template would also evaluate
 * `<% … %>`, which a template from the database must never do).
 */
import type { EmailTemplate } from './contract';

const PARTS = ['subject', 'text', 'html'] as const;

export function renderTemplate(template: Partial<EmailTemplate>, data: Record<string, unknown>): Partial<EmailTemplate> {
  const missing = PARTS.filter((part) => !Object.keys(template).includes(part));
  if (missing.length > 0) throw new Error(`Following attributes are missing from your email template : ${missing.join(', ')}`);
  const values = deepKeys(data);
  const rendered: Partial<EmailTemplate> = {};
  for (const part of PARTS) {
    const text = template[part];
    if (text) rendered[part] = interpolate(String(text), values);
  }
  return rendered;
}

/** Every key path of the data (`user`, `user.email`) with its value, as Strapi's `keysDeep` lists them. */
function deepKeys(data: Record<string, unknown>, prefix = '', into = new Map<string, unknown>()): Map<string, unknown> {
  for (const [key, value] of Object.entries(data)) {
    const path = `${prefix}${key}`;
    into.set(path, value);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) deepKeys(value as Record<string, unknown>, `${path}.`, into);
  }
  return into;
}

/** One left-to-right scan: each `<%= … %>` is replaced when its trimmed content is a known path. */
function interpolate(text: string, values: Map<string, unknown>): string {
  let out = '';
  let at = 0;
  for (;;) {
    const open = text.indexOf('<%=', at);
    const close = open < 0 ? -1 : text.indexOf('%>', open + 3);
    if (close < 0) return out + text.slice(at);
    const path = text.slice(open + 3, close).trim();
    out += text.slice(at, open);
    out += values.has(path) ? display(values.get(path)) : text.slice(open, close + 2);
    at = close + 2;
  }
}

/** As a lodash template prints an interpolated value: nothing for null and undefined, else its string. */
function display(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}
