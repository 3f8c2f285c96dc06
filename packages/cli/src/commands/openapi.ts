/**
 * `tessera openapi`: prints the app's OpenAPI 3.1 document (what
 * `/api/openapi.json` serves) on stdout: `tessera openapi > openapi.json`.
 */
import { parse } from '../args';
import { withLoadedApp } from '../app';
import type { Command } from './command';

export const openapi: Command = {
  name: 'openapi',
  summary: "print this app's OpenAPI 3.1 document (routes, parameters, bodies, envelopes, errors)",
  usage: 'Usage:\n  tessera openapi > openapi.json\n\nThe same document is served at /api/openapi.json in development (and in production with api.openapi.enabled).',
  async run(args) {
    parse(args, {});
    return withLoadedApp(async (app) => {
      const { buildOpenApi } = await import('@tessera/core');
      process.stdout.write(`${JSON.stringify(await buildOpenApi(app), null, 2)}\n`);
      return 0;
    });
  },
};
