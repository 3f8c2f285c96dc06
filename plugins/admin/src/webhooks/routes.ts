/** The webhook admin routes, declared as `@strapi/admin` 4.26.2 declares them (actions `admin::webhooks.*`). */
import type { RouteConfig } from '@tessera/core';
import { adminRoute } from '../api-tokens/routes';

export const WEBHOOK_ROUTES: RouteConfig[] = [
  adminRoute('GET', '/webhooks', 'webhooks.listWebhooks', ['admin::webhooks.read']),
  adminRoute('POST', '/webhooks', 'webhooks.createWebhook', ['admin::webhooks.create']),
  adminRoute('GET', '/webhooks/:id', 'webhooks.getWebhook', ['admin::webhooks.read']),
  adminRoute('PUT', '/webhooks/:id', 'webhooks.updateWebhook', ['admin::webhooks.update']),
  adminRoute('DELETE', '/webhooks/:id', 'webhooks.deleteWebhook', ['admin::webhooks.delete']),
  adminRoute('POST', '/webhooks/batch-delete', 'webhooks.deleteWebhooks', ['admin::webhooks.delete']),
  adminRoute('POST', '/webhooks/:id/trigger', 'webhooks.triggerWebhook', ['admin::webhooks.update']),
];
