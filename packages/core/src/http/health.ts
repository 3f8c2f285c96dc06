/**
 * `GET /_health` (Strapi v4's path): 204 when the database answers a bounded
 * `SELECT 1`, a 503 envelope when it does not. Load balancers and process
 * managers poll it; it needs no credentials and reads no content.
 */
import { ServiceUnavailableError } from '@tessera/errors';
import type { App } from '../app-type';
import type { RouterDefinition } from '../types';

const PING_TIMEOUT_MS = 2000;

export function healthRouter(app: App): RouterDefinition {
  return {
    type: 'raw',
    routes: [
      {
        method: 'GET',
        path: '/_health',
        config: { auth: false },
        handler: async (ctx) => {
          if (!(await app.db.sql.ping(PING_TIMEOUT_MS))) throw new ServiceUnavailableError('The database does not answer');
          ctx.status = 204;
        },
      },
    ],
  };
}
