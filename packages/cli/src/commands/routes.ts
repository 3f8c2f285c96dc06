/**
 * `tessera routes`: every route the app serves — method, path, handler, the
 * action a role or token needs, who may call it, policies — plugin routes
 * and `/graphql` included. Read from the same table the server mounts.
 */
import type { RouteSummary } from '@tessera/core';
import { parse } from '../args';
import { withLoadedApp } from '../app';
import { formatTable } from '../table';
import type { Command } from './command';

const USAGE = `Usage:
  tessera routes [--json]

auth:  none         no credential is checked (the handler runs as the public caller)
       public       the public role (or config/permissions.ts) grants the action
       credentials  an API token or a users-permissions JWT with the action
       admin        a signed-in admin (the admin panel's session; apps with @strapi/admin)`;

export const routes: Command = {
  name: 'routes',
  summary: 'list every route: method, path, handler, action, auth and policies',
  usage: USAGE,
  async run(args) {
    const json = parse(args, { json: { type: 'boolean' } }).options.json === true;
    return withLoadedApp(async (app) => {
      const { routeTable, summarize } = await import('@tessera/core');
      const rows = summarize(routeTable(app), await app.permissions.publicAbility());
      process.stdout.write(json ? `${JSON.stringify(rows, null, 2)}\n` : formatTable(tableRows(rows)));
      return 0;
    });
  },
};

function tableRows(rows: RouteSummary[]): string[][] {
  const header = ['method', 'path', 'handler', 'action', 'auth', 'policies'];
  return [header, ...rows.map((row) => [row.method, row.path, row.handler, row.action, row.auth, row.policies.join(',') || '-'])];
}
