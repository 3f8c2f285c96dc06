/**
 * `tessera webhooks …`: Strapi v4's webhooks without an admin panel. Works on
 * the same `strapi_webhooks` table Strapi's admin writes (through the app's
 * webhook store), and on Tessera's delivery outbox. Webhooks declared in
 * `config/server.ts` are listed (source `config`) but changed only there.
 */
import type { App, Delivery, Webhook, WebhookInput } from '@tessera/core';
import { optionalString, parse, requireString, UsageError, type ParsedArgs } from '../args';
import { withLoadedApp as withApp } from '../app';
import { note, type Command } from './command';
import { formatTable } from '../table';

const USAGE = `Usage:
  tessera webhooks list [--json]
  tessera webhooks create --name <name> --url <url> --events <event,event,...>
                          [--headers '{"Authorization":"Bearer x"}'] [--secret <secret>] [--disabled]
  tessera webhooks update <id> [--name <name>] [--url <url>] [--events <...>] [--headers <json>]
                          [--secret <secret>] [--no-secret] [--enable | --disable]
  tessera webhooks delete <id>
  tessera webhooks trigger <id|name> [--event <event>]
  tessera webhooks deliveries [--failed] [--limit <n>] [--json]
  tessera webhooks retry <delivery id>
  tessera webhooks retry --webhook <id|name>

Events: entry.create, entry.update, entry.delete, entry.publish, entry.unpublish,
        media.create, media.update, media.delete.
With --secret, every delivery carries X-Tessera-Signature (see docs/webhooks.md).
trigger sends one "trigger-test" event now (as Strapi's admin button does) and prints the status.
retry --webhook resumes a webhook paused after failing for delivery.pauseAfterMs; retrying one of
its deliveries resumes it too.`;

export const webhooks: Command = {
  name: 'webhooks',
  summary: 'list, create, update, delete and trigger webhooks; inspect and retry deliveries',
  usage: USAGE,
  async run(args) {
    const [sub, ...rest] = args;
    // Arguments are checked before the app loads: a usage error costs no boot.
    switch (sub) {
      case 'list': {
        const json = parse(rest, { json: { type: 'boolean' } }).options.json === true;
        return withApp((app) => list(app, json));
      }
      case 'create': {
        const input = createInput(rest);
        return withApp((app) => create(app, input));
      }
      case 'update': {
        const { id, input } = updateInput(rest);
        return withApp((app) => update(app, id, input));
      }
      case 'delete': {
        const id = numericId(parse(rest, {}, 1).positionals[0], 'delete needs the id of a webhook');
        return withApp((app) => remove(app, id));
      }
      case 'trigger': {
        const parsed = parse(rest, { event: { type: 'string' } }, 1);
        const target = parsed.positionals[0];
        if (!target) throw new UsageError('trigger needs the id or the name of a webhook');
        return withApp((app) => trigger(app, target, optionalString(parsed, 'event') ?? 'trigger-test'));
      }
      case 'deliveries': {
        const parsed = parse(rest, { failed: { type: 'boolean' }, limit: { type: 'string' }, json: { type: 'boolean' } });
        const limit = optionalString(parsed, 'limit');
        if (limit !== undefined && !/^[1-9]\d{0,4}$/.test(limit)) throw new UsageError('--limit takes a number from 1 to 99999');
        return withApp((app) => deliveries(app, parsed.options.failed === true, Number(limit ?? 50), parsed.options.json === true));
      }
      case 'retry': {
        const parsed = parse(rest, { webhook: { type: 'string' } }, 1);
        const target = optionalString(parsed, 'webhook');
        if (target !== undefined) {
          if (parsed.positionals.length > 0) throw new UsageError('retry takes a delivery id or --webhook, not both');
          return withApp((app) => resume(app, target));
        }
        const id = numericId(parsed.positionals[0], 'retry needs the id of a delivery (see `tessera webhooks deliveries --failed`) or --webhook <id|name>');
        return withApp((app) => retry(app, id));
      }
      default:
        throw new UsageError(sub ? `unknown webhooks command "${sub}"` : 'webhooks needs a command: list, create, update, delete, trigger, deliveries or retry');
    }
  },
};

const EDIT_OPTIONS = {
  name: { type: 'string' },
  url: { type: 'string' },
  events: { type: 'string' },
  headers: { type: 'string' },
  secret: { type: 'string' },
} as const;

function createInput(args: string[]): WebhookInput {
  const parsed = parse(args, { ...EDIT_OPTIONS, disabled: { type: 'boolean' } });
  const input = editInput(parsed);
  input.name = requireString(parsed, 'name');
  input.url = requireString(parsed, 'url');
  if (!input.events) throw new UsageError('--events is required (comma-separated event names)');
  input.isEnabled = parsed.options.disabled !== true;
  return input;
}

function updateInput(args: string[]): { id: number; input: WebhookInput } {
  const parsed = parse(args, { ...EDIT_OPTIONS, 'no-secret': { type: 'boolean' }, enable: { type: 'boolean' }, disable: { type: 'boolean' } }, 1);
  const id = numericId(parsed.positionals[0], 'update needs the id of a webhook');
  const input = editInput(parsed);
  if (parsed.options.enable && parsed.options.disable) throw new UsageError('--enable and --disable contradict each other');
  if (parsed.options.enable) input.isEnabled = true;
  if (parsed.options.disable) input.isEnabled = false;
  if (parsed.options['no-secret']) {
    if (input.secret !== undefined) throw new UsageError('--secret and --no-secret contradict each other');
    input.secret = '';
  }
  if (Object.keys(input).length === 0) throw new UsageError('update needs something to change');
  return { id, input };
}

function editInput(parsed: ParsedArgs): WebhookInput {
  const input: WebhookInput = {};
  for (const key of ['name', 'url', 'secret'] as const) {
    const value = optionalString(parsed, key);
    if (value !== undefined) input[key] = value;
  }
  const events = optionalString(parsed, 'events');
  if (events !== undefined) input.events = events.split(',').map((event) => event.trim()).filter(Boolean);
  const headers = optionalString(parsed, 'headers');
  if (headers !== undefined) input.headers = headerObject(headers);
  return input;
}

function headerObject(text: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError('--headers takes a JSON object, e.g. \'{"Authorization":"Bearer x"}\'');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.values(value).some((item) => typeof item !== 'string')) {
    throw new UsageError('--headers takes a JSON object of strings');
  }
  return value as Record<string, string>;
}

function numericId(value: string | undefined, missing: string): number {
  if (value === undefined) throw new UsageError(missing);
  if (!/^[1-9]\d{0,15}$/.test(value)) throw new UsageError(`"${value}" is not an id`);
  return Number(value);
}

async function list(app: App, json: boolean): Promise<number> {
  const all = app.webhookRunner.list();
  if (json) process.stdout.write(`${JSON.stringify(all.map(shown), null, 2)}\n`);
  else if (all.length === 0) note('No webhooks.');
  else {
    const header = ['id', 'name', 'url', 'events', 'enabled', 'signed', 'source'];
    const rows = all.map((webhook) => [String(webhook.id), webhook.name, webhook.url, webhook.events.join(','), webhook.isEnabled ? 'yes' : 'no', webhook.secret ? 'yes' : 'no', webhook.source]);
    process.stdout.write(formatTable([header, ...rows]));
  }
  return 0;
}

/** What listing shows of a webhook: never its secret. */
function shown(webhook: Webhook): Record<string, unknown> {
  const { secret, ...rest } = webhook;
  return { ...rest, signed: Boolean(secret) };
}

async function create(app: App, input: WebhookInput): Promise<number> {
  const created = await app.webhookStore.createWebhook(input);
  process.stdout.write(`${created.id}\n`);
  note(`Created webhook "${created.name}" (id ${created.id}) for ${created.events.join(', ')}.`);
  return 0;
}

async function update(app: App, id: number, input: WebhookInput): Promise<number> {
  const updated = await app.webhookStore.updateWebhook(id, input);
  if (!updated) return missingWebhook(app, id);
  note(`Updated webhook "${updated.name}" (id ${id}).`);
  return 0;
}

async function remove(app: App, id: number): Promise<number> {
  const deleted = await app.webhookStore.deleteWebhook(id);
  if (!deleted) return missingWebhook(app, id);
  note(`Deleted webhook "${deleted.name}" (id ${id}).`);
  return 0;
}

function missingWebhook(app: App, id: number): number {
  const declared = app.webhookRunner.list().some((webhook) => webhook.source === 'config' && webhook.id === String(id));
  note(declared ? `Webhook "${id}" is declared in config/server.ts: change it there.` : `No webhook with id ${id}.`);
  return 1;
}

async function trigger(app: App, target: string, event: string): Promise<number> {
  const webhook = app.webhookRunner.list().find((item) => String(item.id) === target || item.name === target);
  if (!webhook) {
    note(`No webhook with id or name "${target}".`);
    return 1;
  }
  const result = await app.webhookRunner.run(webhook, event);
  process.stdout.write(`${result.statusCode}\n`);
  if (result.message) note(result.message);
  return result.statusCode >= 200 && result.statusCode < 300 ? 0 : 1;
}

async function deliveries(app: App, failedOnly: boolean, limit: number, json: boolean): Promise<number> {
  const found = await app.webhooks.outbox.list({ status: failedOnly ? 'failed' : undefined, limit });
  if (json) process.stdout.write(`${JSON.stringify(found.map(({ payload, ...rest }) => ({ ...rest, payload: JSON.parse(payload) as unknown })), null, 2)}\n`);
  else if (found.length === 0) note(failedOnly ? 'No failed deliveries.' : 'No deliveries.');
  else process.stdout.write(formatTable([['id', 'status', 'event', 'webhook', 'attempts', 'last', 'created', 'error'], ...found.map(deliveryRow)]));
  return 0;
}

function deliveryRow(delivery: Delivery): string[] {
  return [
    String(delivery.id),
    delivery.status,
    delivery.event,
    delivery.webhookName,
    String(delivery.attempts),
    delivery.lastStatus === null ? '-' : String(delivery.lastStatus),
    new Date(delivery.createdAt).toISOString(),
    (delivery.lastError ?? '').slice(0, 60),
  ];
}

async function resume(app: App, target: string): Promise<number> {
  const webhook = app.webhookRunner.list().find((item) => String(item.id) === target || item.name === target);
  if (!webhook) {
    note(`No webhook with id or name "${target}".`);
    return 1;
  }
  const resumed = await app.webhooks.resume(webhook);
  note(resumed ? `Webhook "${webhook.name}" resumed: its waiting deliveries are sent by the running server.` : `Webhook "${webhook.name}" is not paused.`);
  return 0;
}

async function retry(app: App, id: number): Promise<number> {
  if (await app.webhooks.outbox.retry(id)) {
    const delivery = await app.webhooks.outbox.find(id);
    const webhook = delivery ? app.webhookRunner.byKey(delivery.webhookKey) : undefined;
    if (webhook && (await app.webhooks.resume(webhook))) note(`Webhook "${webhook.name}" was paused: resumed.`);
    note(`Delivery ${id} will be sent again by the running server.`);
    return 0;
  }
  const delivery = await app.webhooks.outbox.find(id);
  note(delivery ? `Delivery ${id} is ${delivery.status}: only failed or delivered ones can be retried.` : `No delivery with id ${id}.`);
  return 1;
}
