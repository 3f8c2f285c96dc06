/**
 * `GET /_health/webhooks`: the outbox's counts by status (`pending`,
 * `sending`, `delivered`, `failed`) as JSON, beside Strapi's `/_health`.
 * For monitoring: a growing `pending` means receivers are down or slow,
 * `failed` means deliveries gave up and wait for `tessera webhooks retry`.
 * Counts only, no payloads: it needs no credentials.
 */
import type { App } from '../app-type';
import type { RouterDefinition } from '../types';
import type { Outbox } from './outbox';

export function webhookMetricsRouter(app: App, outbox: Outbox): RouterDefinition {
  return {
    type: 'raw',
    routes: [
      {
        method: 'GET',
        path: '/_health/webhooks',
        config: { auth: false },
        handler: async (ctx) => {
          ctx.body = { deliveries: await outbox.counts(), webhooks: app.webhookRunner.list().filter((webhook) => webhook.isEnabled).length };
        },
      },
    ],
  };
}
