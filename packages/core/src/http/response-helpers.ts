/**
 * The response helpers Strapi v4 adds to Koa's context, so controllers
 * written for Strapi answer the same way here:
 *
 *   ctx.badRequest(message?, details?)   → 400 `{ data: null, error: { status, name: 'BadRequestError', message, details } }`
 *   ctx.notFound / forbidden / unauthorized / payloadTooLarge / internalServerError / …  (one per 4xx/5xx status)
 *   ctx.send(data, status = 200), ctx.created(data), ctx.deleted(data?)
 *
 * Names are Strapi's: the status text camel-cased for the method, and
 * http-errors' error name (`<Identifier>Error`) in the envelope. Installed
 * once on the Koa app's prototypes, so nothing is done per request.
 */
import { STATUS_CODES } from 'node:http';
import type Koa from 'koa';

type Helper = (this: Koa.Response, ...args: unknown[]) => void;

export function installResponseHelpers(koa: Koa): void {
  const helpers: Record<string, Helper> = {
    send(data: unknown, status: unknown = 200) {
      this.status = Number(status);
      this.body = data;
    },
    created(data: unknown) {
      this.status = 201;
      this.body = data;
    },
    deleted(data: unknown) {
      if (data === undefined || data === null) this.status = 204;
      else {
        this.status = 200;
        this.body = data;
      }
    },
  };
  for (const [code, text] of Object.entries(STATUS_CODES)) {
    const status = Number(code);
    if (status < 400 || status >= 600 || !text) continue;
    helpers[camelCase(text)] = function errorResponse(message?: unknown, details: unknown = {}) {
      this.status = status;
      this.body = { data: null, error: { status, name: errorName(text), message: message === undefined ? text : String(message), details } };
    };
  }
  const response = koa.response as unknown as Record<string, unknown>;
  const context = koa.context as unknown as Record<string, unknown>;
  for (const [name, helper] of Object.entries(helpers)) {
    response[name] = helper;
    // Koa delegates ctx.x to ctx.response.x for its own methods; these are delegated the same way.
    context[name] = function delegated(this: Koa.Context, ...args: unknown[]) {
      return helper.apply(this.response, args);
    };
  }
}

/** lodash's camelCase on status texts: "Payload Too Large" → payloadTooLarge, "I'm a Teapot" → imATeapot. */
function camelCase(text: string): string {
  const words = text.replace(/'/g, '').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((word, index) => (index === 0 ? word.toLowerCase() : word[0].toUpperCase() + word.slice(1).toLowerCase())).join('');
}

/** http-errors' name for a status: its text as an identifier, with `Error` appended unless it ends so. */
function errorName(text: string): string {
  const identifier = text
    .split(' ')
    .map((word) => word.slice(0, 1).toUpperCase() + word.slice(1))
    .join('')
    .replace(/[^ _0-9a-z]/gi, '');
  return identifier.endsWith('Error') ? identifier : `${identifier}Error`;
}
