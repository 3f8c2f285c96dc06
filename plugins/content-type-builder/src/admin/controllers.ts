/**
 * The builder's admin writes (`POST`, `PUT`, `DELETE /content-type-builder/content-types`) and its reserved
 * names, answering as Strapi 4.26.2 does: 400 `{ error }` with its yup errors or the builder's message, 404
 * `{ error: 'contentType.notFound' }`, 201 / 200 `{ data: { uid } }` then a restart. The reads are the content
 * API's controllers (index.ts), which Strapi also mounts on its admin routes.
 */
import type Koa from 'koa';
import type { App } from '@tessera/core';
import { ApplicationError } from '@tessera/errors';
import { BuilderError } from '../builder/workspace';
import { createContentType, deleteContentType, editContentType } from '../builder/content-types';
import { checkComponentBody, deleteComponent } from '../builder/components';
import { checkCategoryBody, deleteCategory, editCategory } from '../builder/component-edits';
import { createComponent, editComponent } from '../builder/component-saves';
import { checkNestedComponents } from '../builder/nested-components';
import { RESERVED_NAMES } from '../builder/names';
import { checkContentTypeBody } from '../builder/validate';
import { requireDevelopment, restartSoon } from './development';

const bodyOf = (ctx: Koa.Context): unknown => (ctx.request as Koa.Request & { body?: unknown }).body;

function answer(ctx: Koa.Context, status: number, body: unknown): void {
  ctx.status = status;
  ctx.body = body;
}

/** The components sent along with a type or a component: new ones (`tmpUID`) and existing ones edited (`uid`). */
const componentsOf = (body: unknown): unknown => (typeof body === 'object' && body !== null ? (body as { components?: unknown }).components : undefined);

/** Strapi's refusal of a kind change that would leave a single type with several entries (its message, its 400). */
const SINGLE_TYPE_REFUSED = 'You cannot convert a collectionType to a singleType when having multiple entries in DB';

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
      const components = checkNestedComponents(app, componentsOf(body));
      if (!components.ok) return answer(ctx, 400, components.body);
      attempt(ctx, app, 201, () => createContentType(app, checked.contentType, components.components));
    },
    async updateContentType(ctx: Koa.Context): Promise<void> {
      requireDevelopment(app);
      const uid = String(ctx.params.uid);
      const contentType = app.contentTypes.find(uid);
      if (!contentType || contentType.bareTable === true) return answer(ctx, 404, { error: 'contentType.notFound' });
      const body = bodyOf(ctx);
      const checked = checkContentTypeBody(app, body, true);
      if (!checked.ok) return answer(ctx, 400, checked.body);
      const components = checkNestedComponents(app, componentsOf(body));
      if (!components.ok) return answer(ctx, 400, components.body);
      const { kind } = checked.contentType;
      if (kind === 'singleType' && contentType.kind !== 'singleType' && (await app.db.query(uid).count({})) > 1) {
        app.log.error(`content-type-builder: ${SINGLE_TYPE_REFUSED}`);
        return answer(ctx, 400, { error: SINGLE_TYPE_REFUSED });
      }
      attempt(ctx, app, 201, () => editContentType(app, uid, checked.contentType, components.components));
    },
    deleteContentType(ctx: Koa.Context): void {
      requireDevelopment(app);
      const uid = String(ctx.params.uid);
      const contentType = app.contentTypes.find(uid);
      if (!contentType || contentType.bareTable === true) return answer(ctx, 404, { error: 'contentType.notFound' });
      // A plugin's type can be extended, not removed (Strapi 4.26.2 answers a 400 here too, failing on its API files).
      if (contentType.plugin !== undefined) return answer(ctx, 400, { error: `${uid} belongs to the ${contentType.plugin} plugin and cannot be deleted` });
      attempt(ctx, app, 200, () => deleteContentType(app, uid));
    },
  };
}

/**
 * A category's rename or delete, answered `{ name }`: Strapi's category controller does not catch its service's
 * refusals (`category not found`, `Name already taken`), so they come in the error envelope as ApplicationErrors.
 */
function categoryChange(ctx: Koa.Context, app: App, step: () => string | undefined): void {
  let name: string | undefined;
  try {
    name = step();
  } catch (error) {
    if (error instanceof BuilderError) throw new ApplicationError(error.message);
    throw error;
  }
  restartSoon(app);
  answer(ctx, 200, { name });
}

/** Strapi's component writes: create, edit and delete a component; rename and delete a category. */
export function componentWritesController(app: App) {
  return {
    createComponent(ctx: Koa.Context): void {
      requireDevelopment(app);
      const body = bodyOf(ctx);
      const checked = checkComponentBody(app, body);
      if (!checked.ok) return answer(ctx, 400, checked.body);
      const components = checkNestedComponents(app, componentsOf(body));
      if (!components.ok) return answer(ctx, 400, components.body);
      attempt(ctx, app, 201, () => createComponent(app, checked.component, components.components));
    },
    deleteComponent(ctx: Koa.Context): void {
      requireDevelopment(app);
      const uid = String(ctx.params.uid);
      if (!app.components.find(uid)) return answer(ctx, 404, { error: 'component.notFound' });
      attempt(ctx, app, 200, () => deleteComponent(app, uid));
    },
    updateComponent(ctx: Koa.Context): void {
      requireDevelopment(app);
      const uid = String(ctx.params.uid);
      if (!app.components.find(uid)) return answer(ctx, 404, { error: 'component.notFound' });
      const body = bodyOf(ctx);
      const checked = checkComponentBody(app, body);
      if (!checked.ok) return answer(ctx, 400, checked.body);
      const components = checkNestedComponents(app, componentsOf(body));
      if (!components.ok) return answer(ctx, 400, components.body);
      attempt(ctx, app, 200, () => editComponent(app, uid, checked.component, components.components));
    },
    editCategory(ctx: Koa.Context): void {
      requireDevelopment(app);
      const checked = checkCategoryBody(bodyOf(ctx));
      if (!checked.ok) return answer(ctx, 400, checked.body);
      // The same name changes nothing; Strapi still answers (its `newName` is then undefined) and restarts.
      categoryChange(ctx, app, () => editCategory(app, String(ctx.params.name), checked.name));
    },
    deleteCategory(ctx: Koa.Context): void {
      requireDevelopment(app);
      categoryChange(ctx, app, () => deleteCategory(app, String(ctx.params.name)));
    },
  };
}

export function builderController() {
  return {
    getReservedNames(ctx: Koa.Context): void {
      ctx.body = RESERVED_NAMES;
    },
  };
}
