import { optionalString, parse } from '../args';
import { requireAppDir } from '../app';
import { stopWhenParentGone } from '../parent-watch';
import { serve } from '../serve';
import { isWorker, superviseWorkers, workerCount } from '../workers';
import type { Command } from './command';

export const start: Command = {
  name: 'start',
  summary: 'run the app for production (NODE_ENV=production, no file watching)',
  usage: `Usage: tessera start [--workers N|auto]

Runs the app in the current directory with NODE_ENV=production.
--workers N   serve from N processes sharing the port (auto: one per core); default 1.
              They share state through the database: use PostgreSQL for more than one.
SIGINT/SIGTERM close the HTTP server (in-flight requests finish, bounded by
server.shutdownTimeout), then the database, and exit 0.`,
  async run(args) {
    const parsed = parse(args, { workers: { type: 'string' } });
    const workers = workerCount(optionalString(parsed, 'workers'));
    requireAppDir();
    if (!isWorker()) stopWhenParentGone();
    if (workers > 1 && !isWorker()) {
      process.env.NODE_ENV = 'production';
      return superviseWorkers(workers);
    }
    return serve('production');
  },
};
