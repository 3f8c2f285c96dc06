/**
 * `GET /_health/webhooks`: the outbox's counts by status (`pending`,
 * `sending`, `delivered`, `failed`), the enabled webhooks and the paused
 * ones, as JSON, beside Strapi's `/_health`. For monitoring: a growing
 * `pending` means receivers are down or slow, `failed` means deliveries gave
 * up and wait for `tessera webhooks retry`, `paused` names webhooks that
 * stopped receiving.
 *
 * It reads the counters (outbox-counts.ts: a row per webhook and status, plus
 * about one poll's unfolded changes), never the outbox's rows, so it costs the
 * same at any backlog. It tells how many webhooks exist and how far behind
 * they are, so it asks for a full-access API token (an admin's credential in
 * Tessera; Strapi has no such route): anything else is Strapi's 403, a missing
 * or unknown token its 401/403 as on any route.
 */
import { ForbiddenError } from '@tessera/errors';
import type { App } from '../app-type';
import type { RouterDefinition } from '../types';
import type { Outbox } from './outbox';
import type { QueueBounds } from './queue-bounds';
import { webhookKey } from './types';

/** What the route's permission check asks for; only a full-access token passes the handler's own check too. */
const ACTION = 'admin::webhooks.read';

export function webhookMetricsRouter(app: App, outbox: Outbox, bounds: QueueBounds): RouterDefinition {
  return {
    type: 'raw',
    routes: [
      {
        method: 'GET',
        path: '/_health/webhooks',
        config: { auth: { scope: [ACTION] } },
        handler: async (ctx) => {
          const credentials = ctx.state.auth?.credentials as { type?: unknown } | null | undefined;
          if (ctx.state.auth?.strategy?.name !== 'api-token' || credentials?.type !== 'full-access') throw new ForbiddenError();
          const enabled = app.webhookRunner.list().filter((webhook) => webhook.isEnabled);
          const paused = new Set(bounds.pausedKeys());
          ctx.body = {
            deliveries: await outbox.counters.totals(app.db.sql),
            webhooks: enabled.length,
            paused: enabled.filter((webhook) => paused.has(webhookKey(webhook))).map((webhook) => webhook.name),
          };
        },
      },
    ],
  };
}
