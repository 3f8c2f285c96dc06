/**
 * The builder's admin writes (`POST`, `PUT`, `DELETE /content-type-builder/content-types`) and its reserved
 * names, answering as Strapi 4.26.2 does: 400 `{ error }` with its yup errors or the builder's message, 404
 * `{ error: 'contentType.notFound' }`, 201 / 200 `{ data: { uid } }` then a restart. The reads are the content
 * API's controllers (index.ts), which Strapi also mounts on its admin routes.
 */
import type Koa from 'koa';
import type { App } from '@tessera/core';
import { createContentType, deleteContentType, editContentType } from '../builder/content-types';
import { checkComponentBody, checkNewComponents, createComponent, deleteComponent } from '../builder/components';
import { RESERVED_NAMES } from '../builder/names';
import { checkContentTypeBody } from '../builder/validate';
import { requireDevelopment, restartSoon } from './development';

const bodyOf = (ctx: Koa.Context): unknown => (ctx.request as Koa.Request & { body?: unknown }).body;

function answer(ctx: Koa.Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.body = body;
}

/** The components sent along with a type or a component (the panel's "create a new component" inside a field). */
const componentsOf = (body: unknown): unknown => (typeof body === 'object' && body !== null ? (body as { components?: unknown }).components : undefined);
const hasComponents = (body: unknown): boolean => {
  const components = componentsOf(body);
  return Array.isArray(components) && components.length > 0;
};

const COMPONENTS_REFUSED = 'Tessera creates new components along with a new content type only (not with an edit, nor inside another component, nor editing an existing one in the same save): save the component first, then use it';
const COMPONENT_EDITS_REFUSED = 'Tessera does not edit components or component categories from the content-type builder yet: edit the file in src/components/';

/** Runs a builder step; a refusal (a name taken, a missing target, a file in the way) is Strapi's 400 `{ error: message }`. */
function attempt(ctx: Koa.Context, app: App, status: number, step: () => string): void {
  let uid: string;
  try {
    uid = step();
  } catch (error) {
    app.log.error(`content-type-builder: ${error instanceof Error ? error.message : String(error)}`);
    return answer(ctx, 400, { error: error instanceof Error ? error.message : 'Unknown error' });
  }
  restartSoon(app);
  answer(ctx, status, { data: { uid } });
}

export function builderWritesController(app: App) {
  return {
    createContentType(ctx: Koa.Context): void {
      requireDevelopment(app);
      const body = bodyOf(ctx);
      const checked = checkContentTypeBody(app, body, false);
      if (!checked.ok) return answer(ctx, 400, checked.body);
      const components = checkNewComponents(app, componentsOf(body), COMPONENTS_REFUSED);
      if (!components.ok) return answer(ctx, 400, components.body);
      attempt(ctx, app, 201, () => createContentType(app, checked.contentType, components.components));
    },
    updateContentType(ctx: Koa.Context): void {
      requireDevelopment(app);
      const uid = String(ctx.params.uid);
      const contentType = app.contentTypes.find(uid);
      if (!contentType || contentType.bareTable === true) return answer(ctx, 404, { error: 'contentType.notFound' });
      const body = bodyOf(ctx);
      const checked = checkContentTypeBody(app, body, true);
      if (!checked.ok) return answer(ctx, 400, checked.body);
      if (hasComponents(body)) return answer(ctx, 400, { error: COMPONENTS_REFUSED });
      if (checked.contentType.kind !== undefined && checked.contentType.kind !== contentType.kind) {
        return answer(ctx, 400, { error: 'Tessera does not change a content type between collection and single type yet: create a new type' });
      }
      attempt(ctx, app, 201, () => editContentType(app, uid, checked.contentType));
    },
    deleteContentType(ctx: Koa.Context): void {
      requireDevelopment(app);
      const uid = String(ctx.params.uid);
      const contentType = app.contentTypes.find(uid);
      if (!contentType || contentType.bareTable === true) return answer(ctx, 404, { error: 'contentType.notFound' });
      attempt(ctx, app, 200, () => deleteContentType(app, uid));
    },
  };
}

/** Strapi's component writes: create and delete; editing a component or a category is refused with a 400 saying so. */
export function componentWritesController(app: App) {
  const refuse = (ctx: Koa.Context): void => {
    requireDevelopment(app);
    answer(ctx, 400, { error: COMPONENT_EDITS_REFUSED });
  };
  return {
    createComponent(ctx: Koa.Context): void {
      requireDevelopment(app);
      const body = bodyOf(ctx);
      const checked = checkComponentBody(app, body);
      if (!checked.ok) return answer(ctx, 400, checked.body);
      if (hasComponents(body)) return answer(ctx, 400, { error: COMPONENTS_REFUSED });
      attempt(ctx, app, 201, () => createComponent(app, checked.component));
    },
    deleteComponent(ctx: Koa.Context): void {
      requireDevelopment(app);
      const uid = String(ctx.params.uid);
      if (!app.components.find(uid)) return answer(ctx, 404, { error: 'component.notFound' });
      attempt(ctx, app, 200, () => deleteComponent(app, uid));
    },
    updateComponent: refuse,
    editCategory: refuse,
    deleteCategory: refuse,
  };
}

export function builderController() {
  return {
    getReservedNames(ctx: Koa.Context): void {
      ctx.body = RESERVED_NAMES;
    },
  };
}
