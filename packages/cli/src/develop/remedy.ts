/**
 * What a developer should change after `tessera develop` failed to start the
 * app. The child works it out from the boot error and tells the supervisor
 * (IPC), which prints it instead of always pointing at src/ and config/: a
 * taken port or a wrong environment variable is not fixed by saving a file.
 */

/** The IPC message a develop child sends before exiting on a boot failure. */
export interface BootFailure {
  type: 'tessera:boot-failed';
  remedy: string;
}

const WATCHED = 'waiting for a change in src/ or config/ to start it again';

export function remedyFor(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    return 'the port is not available: stop the process using it or set PORT (in .env), then restart tessera develop';
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/DATABASE_|database client|cannot prepare the database|connect ECONNREFUSED|password authentication/.test(message)) {
    return 'the database settings need a change: fix DATABASE_* in .env or the environment, then restart tessera develop';
  }
  if (/\b(src|config)\/[\w./-]+/.test(message) || (error instanceof Error && error.name === 'ConfigurationError')) return WATCHED;
  return `${WATCHED} (or fix the environment and restart tessera develop)`;
}

/** The IPC message a develop child sends when app code calls `strapi.reload()`: the supervisor restarts it. */
export interface ReloadRequest {
  type: 'tessera:reload';
  reason: string;
}

export function isReloadRequest(message: unknown): message is ReloadRequest {
  return typeof message === 'object' && message !== null && (message as ReloadRequest).type === 'tessera:reload' && typeof (message as ReloadRequest).reason === 'string';
}

export function isBootFailure(message: unknown): message is BootFailure {
  return typeof message === 'object' && message !== null && (message as BootFailure).type === 'tessera:boot-failed' && typeof (message as BootFailure).remedy === 'string';
}
