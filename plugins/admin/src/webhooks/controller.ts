/**
 * The panel's webhook pages (`webhooks` controller of `@strapi/admin`
 * 4.26.2), over Tessera's webhook store and runner (`strapi.webhookStore`,
 * `strapi.webhookRunner`): the same `strapi_webhooks` rows `tessera webhooks`
 * manages, delivered through the outbox. The test trigger makes one attempt
 * now and answers the receiver's status (and its message when not a 2xx),
 * which the panel shows. Where Strapi answers a 500 (triggering a webhook
 * that does not exist), Tessera answers the 404 its other routes give.
 */
import type Koa from 'koa';
import { requestBody, type App, type StoredWebhook } from '@tessera/core';
import { checkBody } from '../body-rules';
import { rowId } from '../api-tokens/controller';
import { CREATE_WEBHOOK, UPDATE_WEBHOOK, type WebhookBody } from './validation';

/** Budget: a batch delete names at most this many webhooks. */
const MAX_BATCH = 1000;

function answerError(ctx: Koa.Context, status: 400 | 404, name: string, message: string): void {
  ctx.status = status;
  ctx.body = { data: null, error: { status, name, message, details: {} } };
}

const notFound = (ctx: Koa.Context) => answerError(ctx, 404, 'NotFoundError', 'webhook.notFound');

/** A batch id as Strapi takes it (a number or its digits); others name no webhook. */
function batchId(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : null;
  return rowId(value);
}

export function webhookController(app: App) {
  const store = () => app.webhookStore;
  const runner = () => app.webhookRunner;
  const find = async (ctx: Koa.Context): Promise<StoredWebhook | null> => {
    const id = rowId(ctx.params.id);
    return id === null ? null : store().findWebhook(id);
  };

  return {
    async listWebhooks(ctx: Koa.Context) {
      ctx.body = { data: await store().findWebhooks() };
    },

    async getWebhook(ctx: Koa.Context) {
      const webhook = await find(ctx);
      if (!webhook) return notFound(ctx);
      ctx.body = { data: webhook };
    },

    async createWebhook(ctx: Koa.Context) {
      const body = checkBody<WebhookBody>(requestBody(ctx), CREATE_WEBHOOK);
      const webhook = await store().createWebhook(body);
      runner().add(webhook);
      ctx.status = 201;
      ctx.body = { data: webhook };
    },

    async updateWebhook(ctx: Koa.Context) {
      const body = checkBody<WebhookBody>(requestBody(ctx), UPDATE_WEBHOOK);
      const webhook = await find(ctx);
      if (!webhook) return notFound(ctx);
      const updated = await store().updateWebhook(webhook.id, { ...webhook, ...body });
      if (!updated) return notFound(ctx);
      runner().update(updated);
      ctx.body = { data: updated };
    },

    async deleteWebhook(ctx: Koa.Context) {
      const webhook = await find(ctx);
      if (!webhook) return notFound(ctx);
      await store().deleteWebhook(webhook.id);
      runner().remove(webhook);
      ctx.body = { data: webhook };
    },

    /** Deletes those of `ids` that exist; answers the ids as given, as Strapi does. */
    async deleteWebhooks(ctx: Koa.Context) {
      const body = requestBody(ctx);
      const ids = typeof body === 'object' && body !== null ? (body as { ids?: unknown }).ids : undefined;
      if (!Array.isArray(ids) || ids.length === 0) return answerError(ctx, 400, 'BadRequestError', 'ids must be an array of id');
      if (ids.length > MAX_BATCH) return answerError(ctx, 400, 'BadRequestError', `ids must name at most ${MAX_BATCH} webhooks`);
      const numeric = ids.map(batchId).filter((id): id is number => id !== null);
      for (const webhook of await store().deleteWebhooks([...new Set(numeric)])) runner().remove(webhook);
      ctx.body = { data: ids };
    },

    async triggerWebhook(ctx: Koa.Context) {
      const id = rowId(ctx.params.id);
      const webhook = id === null ? null : await store().findForDelivery(id);
      if (!webhook) return notFound(ctx);
      ctx.body = { data: await runner().run(webhook, 'trigger-test', {}) };
    },
  };
}
