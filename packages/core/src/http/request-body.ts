/**
 * What the kernel's body parser (middlewares/body.ts, over koa-body) put on
 * the request. koa-body declares `ctx.request.body` and `files` only where its
 * types are imported; plugins read them here instead of each casting Koa's
 * request type.
 */
import type Koa from 'koa';
import type {} from 'koa-body';

/** The parsed body: JSON, form fields, or a multipart request's fields; undefined when none was read. */
export function requestBody(ctx: Koa.Context): unknown {
  return ctx.request.body as unknown;
}

/** A multipart request's files as the global parser read them (Strapi's `ctx.request.files`); undefined otherwise. */
export function requestFiles(ctx: Koa.Context): Record<string, unknown> | undefined {
  return ctx.request.files as Record<string, unknown> | undefined;
}
