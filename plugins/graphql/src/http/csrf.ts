/**
 * CSRF prevention, Apollo Server 4's rule. A browser sends a cross-origin
 * POST without asking first (no CORS preflight) when it is a "simple"
 * request: a form (urlencoded or multipart) or text/plain body, or no
 * content type at all. Such a request could run a mutation from a page on
 * any site, from the victim's network (Tessera's credentials are bearer
 * tokens, never cookies, so it runs as the public role — register, forgot
 * password, whatever the public role may do).
 *
 * So a POST is answered only when its content type is one a page cannot
 * send without a preflight — JSON (`application/json`,
 * `application/graphql-response+json`) or `application/graphql` — or when it
 * carries a header only a preflighted request can: `apollo-require-preflight`,
 * `x-apollo-operation-name` (apollo-upload-client sets one) or a non-empty
 * `Authorization`. GET is left alone: it runs queries only (the endpoint
 * answers 405 to a mutation), and another site cannot read the answer.
 */
import type Koa from 'koa';

/** Headers a browser cannot add to a cross-origin request without a preflight the CORS policy allowed. */
const PREFLIGHT_HEADERS = ['apollo-require-preflight', 'x-apollo-operation-name', 'authorization'];
const NON_SIMPLE_TYPES = new Set(['application/json', 'application/graphql-response+json', 'application/graphql']);

/** Why the request is refused, or null when it may run. */
export function csrfRefusal(ctx: Koa.Context): string | null {
  if (ctx.method !== 'POST') return null;
  const type = mediaType(ctx.get('content-type'));
  if (NON_SIMPLE_TYPES.has(type)) return null;
  if (PREFLIGHT_HEADERS.some((name) => ctx.get(name).trim() !== '')) return null;
  const request = type.startsWith('multipart/') ? 'A multipart GraphQL request' : `A GraphQL POST sent as ${type === '' ? 'no content type' : type}`;
  return `${request} must carry an apollo-require-preflight or x-apollo-operation-name header (or Authorization): without one, a page on another site could send it (CSRF)`;
}

/** `application/json; charset=utf-8` → `application/json`. */
function mediaType(header: string): string {
  const end = header.indexOf(';');
  return (end === -1 ? header : header.slice(0, end)).trim().toLowerCase();
}
