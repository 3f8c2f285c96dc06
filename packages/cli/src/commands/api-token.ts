/**
 * `tessera api-token create|list|revoke`: loads the app without listening
 * and works through its token service. stdout carries only the result
 * (the plaintext token, the table or JSON) so scripts can capture it.
 */
import type { ApiTokenInfo, ApiTokenType, App, CreateApiTokenInput } from '@tessera/core';
import { optionalString, parse, requireString, UsageError, type ParsedArgs } from '../args';
import { withLoadedApp as withApp } from '../app';
import { note, type Command } from './command';
import { formatTable } from '../table';

const TYPES: ApiTokenType[] = ['read-only', 'full-access', 'custom'];

const USAGE = `Usage:
  tessera api-token create --name <name> --type read-only|full-access|custom
                           [--duration <days>] [--permissions <action,action,...>]
                           [--description <text>]
  tessera api-token list [--json]
  tessera api-token revoke <id|name>

create prints the new token alone on stdout (it is shown only once).
Names cannot be all digits: revoke reads a number as an id.
--permissions lists the actions of a custom token, e.g.
  api::article.article.find,api::article.article.create`;

export const apiToken: Command = {
  name: 'api-token',
  summary: 'create, list and revoke API tokens',
  usage: USAGE,
  async run(args) {
    const [sub, ...rest] = args;
    // Arguments are checked before the app loads: a usage error costs no boot.
    if (sub === 'create') {
      const input = createInput(rest);
      return withApp((app) => create(app, input));
    }
    if (sub === 'list') {
      const json = listJson(rest);
      return withApp((app) => list(app, json));
    }
    if (sub === 'revoke') {
      const target = revokeTarget(rest);
      return withApp((app) => revoke(app, target));
    }
    throw new UsageError(sub ? `unknown api-token command "${sub}"` : 'api-token needs a command: create, list or revoke');
  },
};

export function createInput(args: string[]): CreateApiTokenInput {
  const parsed = parse(args, {
    name: { type: 'string' },
    type: { type: 'string' },
    duration: { type: 'string' },
    permissions: { type: 'string' },
    description: { type: 'string' },
  });
  const type = tokenType(requireString(parsed, 'type'));
  const permissions = permissionList(parsed, type);
  const input: CreateApiTokenInput = { name: requireString(parsed, 'name'), type };
  const duration = optionalString(parsed, 'duration');
  if (duration !== undefined) input.durationDays = durationDays(duration);
  if (permissions) input.permissions = permissions;
  const description = optionalString(parsed, 'description');
  if (description !== undefined) input.description = description;
  return input;
}

function tokenType(value: string): ApiTokenType {
  if (!TYPES.includes(value as ApiTokenType)) throw new UsageError(`--type must be one of ${TYPES.join(', ')} (got "${value}")`);
  return value as ApiTokenType;
}

function durationDays(value: string): number {
  const days = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(days > 0)) throw new UsageError(`--duration must be a positive number of days (got "${value}")`);
  return days;
}

function permissionList(parsed: ParsedArgs, type: ApiTokenType): string[] | undefined {
  const raw = optionalString(parsed, 'permissions');
  if (raw === undefined) {
    if (type === 'custom') throw new UsageError('a custom token needs --permissions (comma-separated actions)');
    return undefined;
  }
  if (type !== 'custom') throw new UsageError('--permissions applies only to --type custom');
  const actions = raw.split(',').map((action) => action.trim()).filter(Boolean);
  const malformed = actions.find((action) => !/^[\w-]+::[\w.-]+$/.test(action));
  if (actions.length === 0 || malformed) throw new UsageError(`--permissions takes actions like api::article.article.find (got "${malformed ?? raw}")`);
  return actions;
}

function listJson(args: string[]): boolean {
  return parse(args, { json: { type: 'boolean' } }).options.json === true;
}

function revokeTarget(args: string[]): string {
  const target = parse(args, {}, 1).positionals[0];
  if (!target) throw new UsageError('revoke needs the id or the name of a token');
  return target;
}

async function create(app: App, input: CreateApiTokenInput): Promise<number> {
  const unknown = (input.permissions ?? []).find((action) => action.startsWith('api::') && !app.contentTypes.has(action.slice(0, action.lastIndexOf('.'))));
  if (unknown) {
    note(`Error: --permissions names "${unknown}", but this app has no content type ${unknown.slice(0, unknown.lastIndexOf('.'))}.`);
    return 1;
  }
  const { token, accessKey } = await app.apiTokens.create(input);
  process.stdout.write(`${accessKey}\n`);
  note(`Created ${token.type} API token "${token.name}" (id ${token.id}, ${token.expiresAt ? `expires ${token.expiresAt}` : 'never expires'}).`);
  note('Copy it now: it is stored only as a hash and cannot be shown again.');
  return 0;
}

async function list(app: App, json: boolean): Promise<number> {
  const tokens = await app.apiTokens.list();
  if (json) process.stdout.write(`${JSON.stringify(tokens, null, 2)}\n`);
  else if (tokens.length === 0) note('No API tokens.');
  else process.stdout.write(formatTable(tokenRows(tokens)));
  return 0;
}

function tokenRows(tokens: ApiTokenInfo[]): string[][] {
  const header = ['id', 'name', 'type', 'expires', 'permissions'];
  const rows = tokens.map((t) => [String(t.id), t.name, t.type, t.expiresAt ?? 'never', t.permissions.join(',') || '-']);
  return [header, ...rows];
}

async function revoke(app: App, target: string): Promise<number> {
  if (!(await app.apiTokens.revoke(target))) {
    note(`No API token with id or name "${target}".`);
    return 1;
  }
  note(`Revoked API token "${target}".`);
  return 0;
}
