/**
 * `strapi.reload()`: Strapi 4.26.2 restarts the app through `strapi develop` (the content-type builder and plugins
 * that create content types at run time call it, then expect the new types to exist). Under `tessera develop` it
 * asks the supervisor for a restart, as Strapi's asks its develop parent. Anywhere else Strapi does nothing (its
 * `autoReload` is off) and the new types never exist, so the plugin's routes fail later; here the call is refused
 * with an error naming the calling package and what to do.
 *
 * `isWatching` and `isReloading` are Strapi's: turning watching off and back on skips the next reload (the
 * content-type builder writes files with watching off, then reloads once).
 */
import { ConfigurationError } from '@tessera/errors';

export interface Reload {
  (): void;
  isWatching: boolean;
  isReloading: boolean;
}

/** `restart`: what restarts the app (given by `tessera develop`), or undefined when nothing can. */
export function createReload(restart: ((reason: string) => void) | undefined): Reload {
  let skipped = 0;
  let watching = true;
  const reload = (() => {
    if (skipped > 0) {
      skipped -= 1;
      reload.isReloading = false;
      return;
    }
    const caller = callingPackage(new Error().stack ?? '');
    if (!restart) {
      throw new ConfigurationError(
        `strapi.reload() was called by ${caller}: only \`tessera develop\` restarts an app. It usually follows creating content types ` +
          'at run time (through the content-type builder); in production, create them in development, commit the schema files, and deploy.',
      );
    }
    reload.isReloading = true;
    restart(`strapi.reload() by ${caller}`);
  }) as Reload;
  Object.defineProperty(reload, 'isWatching', {
    enumerable: true,
    get: () => watching,
    set(value: boolean) {
      if (!watching && value) skipped += 1;
      watching = value;
    },
  });
  reload.isReloading = false;
  return reload;
}

/**
 * A frame of Tessera's own code (`…/@tessera/…`, or `…/packages|plugins/<name>/dist/src/…` in its repository) or of
 * Node, passed over. Compared by path segment: one alternation doing all of it was the costliest pattern of the
 * source for the ReDoS check to prove safe.
 */
function isKernelFrame(frame: string): boolean {
  if (frame.includes('(node:') || frame.includes('at node:')) return true;
  const parts = frame.split(/[/\\]/);
  return parts.some((part, index) => {
    if (index === 0 || index === parts.length - 1) return false;
    if (part === '@tessera') return true;
    return (part === 'packages' || part === 'plugins') && /^[\w-]+$/.test(parts[index + 1] ?? '') && parts[index + 2] === 'dist' && parts[index + 3] === 'src' && index + 4 < parts.length;
  });
}

/** The package whose code made the call (its first frame outside Tessera: `node_modules/<name>/…`), else the app's code. */
export function callingPackage(stack: string): string {
  const caller = stack
    .split('\n')
    .slice(1)
    .find((frame) => !isKernelFrame(frame));
  const inPackage = caller ? /node_modules[/\\]((?:@[^/\\]+[/\\])?[^/\\]+)[/\\]/.exec(caller) : null;
  if (inPackage) return `the plugin ${inPackage[1].replace('\\', '/')}`;
  const local = caller ? /[/\\]src[/\\]plugins[/\\]([^/\\]+)[/\\]/.exec(caller) : null;
  if (local) return `the app's plugin ${local[1]}`;
  return "the app's code";
}
