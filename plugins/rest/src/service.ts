/**
 * The core service of a content type: the content API operations bound to
 * one uid. Controllers call it; apps override or extend it with
 * `createCoreService`. Without an `auth`, a call comes from the app's own
 * server code (bootstrap, a custom controller) and is trusted, as in Strapi
 * v4: every type readable, drafts only when it asks for `preview` (the
 * default is `live`). The controller never calls it without the caller.
 */
import { allowEverything, type App, type AuthState, type Entity, type FindResult, type RequestParams } from '@tessera/core';

export interface CoreServiceParams extends RequestParams {
  data?: unknown;
}

export interface CoreService {
  find(params?: CoreServiceParams, auth?: AuthState): Promise<FindResult | Entity>;
  findOne(id: unknown, params?: CoreServiceParams, auth?: AuthState): Promise<Entity>;
  create(params: CoreServiceParams, auth?: AuthState): Promise<Entity>;
  update(id: unknown, params: CoreServiceParams, auth?: AuthState): Promise<Entity>;
  delete(id: unknown, params?: CoreServiceParams, auth?: AuthState): Promise<Entity>;
  /** Strapi's helper: the params with `publicationState: 'live'` unless they name one (extensions call `this.getFetchParams`). */
  getFetchParams(params?: CoreServiceParams): CoreServiceParams;
}

const TRUSTED: AuthState = { strategy: { name: 'internal' }, credentials: null, ability: allowEverything };

export function defaultService(app: App, uid: string): CoreService {
  const single = app.contentTypes.get(uid).kind === 'singleType';
  const api = () => app.contentApi;
  const split = (params: CoreServiceParams = {}) => {
    const { data, ...query } = params;
    return { data, query };
  };
  return {
    // `return await`: an async function that returns a promise resolves through two more queued jobs.
    async find(params = {}, auth = TRUSTED) {
      if (single) return await api().findSingle(uid, { auth, params });
      return await api().find(uid, { auth, params });
    },
    async findOne(id, params = {}, auth = TRUSTED) {
      return await api().findOne(uid, id, { auth, params });
    },
    async create(params, auth = TRUSTED) {
      const { data, query } = split(params);
      return api().create(uid, data, { auth, params: query });
    },
    async update(id, params, auth = TRUSTED) {
      const { data, query } = split(params);
      if (single) return api().upsertSingle(uid, data, { auth, params: query });
      return api().update(uid, id, data, { auth, params: query });
    },
    async delete(id, params = {}, auth = TRUSTED) {
      if (single) return api().deleteSingle(uid, { auth, params });
      return api().delete(uid, id, { auth, params });
    },
    getFetchParams: (params = {}) => ({ publicationState: 'live', ...params }),
  };
}
