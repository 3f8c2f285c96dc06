/**
 * The core service of a content type: the content API operations bound to
 * one uid. Controllers call it; apps override or extend it with
 * `createCoreService`. Without an `auth` (the request's `ctx.state.auth`), a call comes from the app's own
 * server code (bootstrap, a custom controller) and is trusted, as in Strapi
 * v4: every type readable, drafts only when it asks for `preview` (the
 * default is `live`). The controller never calls it without the caller.
 *
 * As Strapi's core service, an entry that does not exist is `null`, not an
 * error (app code tests `if (!entry)`); the core controller answers it 404.
 */
import { Caller, type App, type AuthState, type Entity, type FindResult, type RequestParams } from '@tessera/core';
import { NotFoundError } from '@tessera/errors';

export interface CoreServiceParams extends RequestParams {
  data?: unknown;
}

export interface CoreService {
  /** A collection's page, or a single type's entry (null when it has none). */
  find(params?: CoreServiceParams, auth?: AuthState): Promise<FindResult | Entity | null>;
  findOne(id: unknown, params?: CoreServiceParams, auth?: AuthState): Promise<Entity | null>;
  create(params: CoreServiceParams, auth?: AuthState): Promise<Entity>;
  update(id: unknown, params: CoreServiceParams, auth?: AuthState): Promise<Entity | null>;
  delete(id: unknown, params?: CoreServiceParams, auth?: AuthState): Promise<Entity | null>;
  /** Strapi's helper: the params with `publicationState: 'live'` unless they name one (extensions call `this.getFetchParams`). */
  getFetchParams(params?: CoreServiceParams): CoreServiceParams;
}

export function defaultService(app: App, uid: string): CoreService {
  const single = app.contentTypes.get(uid).kind === 'singleType';
  const api = () => app.contentOperations;
  const split = (params: CoreServiceParams = {}) => {
    const { data, ...query } = params;
    return { data, query };
  };
  return {
    // `return await`: an async function that returns a promise resolves through two more queued jobs.
    async find(params = {}, auth) {
      const caller = callerOf(auth);
      if (single) return await orNull(api().findSingle(uid, { caller, params }));
      return await api().find(uid, { caller, params });
    },
    async findOne(id, params = {}, auth) {
      const caller = callerOf(auth);
      return await orNull(api().findOne(uid, id, { caller, params }));
    },
    async create(params, auth) {
      const caller = callerOf(auth);
      const { data, query } = split(params);
      return api().create(uid, data, { caller, params: query });
    },
    async update(id, params, auth) {
      const caller = callerOf(auth);
      const { data, query } = split(params);
      if (single) return api().upsertSingle(uid, data, { caller, params: query });
      return orNull(api().update(uid, id, data, { caller, params: query }));
    },
    async delete(id, params = {}, auth) {
      const caller = callerOf(auth);
      if (single) return orNull(api().deleteSingle(uid, { caller, params }));
      return orNull(api().delete(uid, id, { caller, params }));
    },
    getFetchParams: (params = {}) => ({ publicationState: 'live', ...params }),
  };
}

/** The operations' caller: the request's (its `ctx.state.auth`, what the controller and app code pass), or trusted server code. */
function callerOf(auth: AuthState | undefined): Caller {
  return auth ? Caller.of(auth) : Caller.server;
}

/** The operation's entry, or null where it found none to read, change or delete. */
async function orNull(operation: Promise<Entity>): Promise<Entity | null> {
  try {
    return await operation;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}
