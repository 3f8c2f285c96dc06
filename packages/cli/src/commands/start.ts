import { parse } from '../args';
import { serve } from '../serve';
import type { Command } from './command';

export const start: Command = {
  name: 'start',
  summary: 'run the app for production (NODE_ENV=production, no file watching)',
  usage: `Usage: tessera start

Runs the app in the current directory with NODE_ENV=production.
SIGINT/SIGTERM close the HTTP server, then the database, and exit 0.`,
  async run(args) {
    parse(args, {});
    return serve('production');
  },
};
