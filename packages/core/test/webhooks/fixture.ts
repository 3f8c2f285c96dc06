/**
 * The webhook suites' app: a draft & publish `post` with a private field, a
 * relation, a component (with a private field) and a media field; a
 * `category`; the rest and upload plugins; delivery timings in milliseconds.
 */
import type { ConfigTree, Delivery, DeliveryStatus } from '@tessera/core';
import restPlugin from '@tessera/plugin-rest';
import uploadPlugin from '@tessera/plugin-upload';
import { startApp, type DatabaseHandle, type TestApp, type TestDialect } from '@tessera/testing';

export const FILES = {
  'src/api/post/content-types/post/schema.json': {
    kind: 'collectionType',
    collectionName: 'posts',
    info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
    options: { draftAndPublish: true },
    attributes: {
      title: { type: 'string', required: true, unique: true },
      secret: { type: 'string', private: true },
      category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category', inversedBy: 'posts' },
      seo: { type: 'component', component: 'shared.seo' },
      cover: { type: 'media', multiple: false },
    },
  },
  'src/api/category/content-types/category/schema.json': {
    kind: 'collectionType',
    collectionName: 'categories',
    info: { singularName: 'category', pluralName: 'categories', displayName: 'Category' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, posts: { type: 'relation', relation: 'oneToMany', target: 'api::post.post', mappedBy: 'category' } },
  },
  'src/components/shared/seo.json': {
    collectionName: 'components_shared_seos',
    info: { displayName: 'Seo' },
    attributes: { metaTitle: { type: 'string' }, note: { type: 'string', private: true } },
  },
};

export const FAST_DELIVERY = { backoffMs: 20, maxBackoffMs: 200, pollIntervalMs: 50, maxAttempts: 3, timeoutMs: 2000 };

export async function startWebhookApp(dialect: TestDialect, webhooks: Record<string, unknown> = {}, database?: DatabaseHandle, extra: ConfigTree = {}): Promise<TestApp> {
  const config: ConfigTree = {
    server: { webhooks: { defaultHeaders: { 'X-Default': 'from-config' }, ...webhooks, delivery: { ...FAST_DELIVERY, ...((webhooks.delivery as object) ?? {}) } } },
    plugins: { upload: { enabled: true } },
    ...extra,
  };
  return startApp({ dialect, files: FILES, plugins: [restPlugin, uploadPlugin], config, database });
}

/** A webhook stored as Strapi stores one, then registered with the runner as Strapi's admin does. */
export async function addWebhook(app: TestApp, url: string, events: string[], extra: { secret?: string; headers?: Record<string, string> } = {}) {
  const created = await app.app.webhookStore.createWebhook({ name: `hook ${events.join(',')}`, url, events, headers: extra.headers ?? {}, secret: extra.secret });
  app.app.webhookRunner.add({ ...created, secret: extra.secret });
  return created;
}

export const ALL_EVENTS = ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'media.create', 'media.update', 'media.delete'];

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The outbox row of delivery `id` once it has `status` (attempts settle just after the receiver answers), polled
 * until then: the test's timeout bounds the wait.
 */
export async function settled(app: TestApp, id: number, status: DeliveryStatus): Promise<Delivery> {
  for (;;) {
    const delivery = await app.app.webhooks.outbox.find(id);
    if (delivery?.status === status) return delivery;
    await sleep(20);
  }
}
