/**
 * Which changed files `tessera develop` does not restart for: the ones Strapi 4.26.2's `strapi develop` ignores
 * (its watcher's list, in @strapi/admin's develop command) and the app's `admin.watchIgnoreFiles`, besides editors'
 * swap and backup files. Plugins write into the app at every boot — @strapi/plugin-documentation rewrites
 * `src/api/<name>/documentation/**` and `src/extensions/documentation/**` — and a watcher that saw those restarted
 * the app forever.
 *
 * Strapi's list is chokidar globs against absolute paths; here they are matched against the path relative to the
 * app (and, for the app's own patterns, the absolute one too). Strapi's `/tmp/` is a regular expression on the
 * absolute path, which ignores every file of an app kept under /tmp; it is read on the relative path here.
 */
import path from 'node:path';

/** Strapi 4.26.2's develop watcher's `ignored` (less `public`'s absolute path, which `**\/public/**` covers here). */
const STRAPI_IGNORED: Array<string | RegExp> = [
  /(^|[/\\])\../, // dot files and folders
  /tmp/,
  '**/src/admin/**',
  '**/src/plugins/**/admin/**',
  '**/dist/src/plugins/test/admin/**',
  '**/documentation',
  '**/documentation/**',
  '**/node_modules',
  '**/node_modules/**',
  '**/plugins.json',
  '**/build',
  '**/build/**',
  '**/index.html',
  '**/public',
  '**/public/**',
  '**/*.db*',
  '**/exports/**',
  '**/dist/**',
  '**/*.d.ts',
  '**/.yalc/**',
  '**/yalc.lock',
];

/** A glob (`*` within a segment, `**` across them, `?` one character) as an anchored regular expression. */
export function globToRegExp(glob: string): RegExp {
  const source = glob.replace(/^\.\//, '');
  let pattern = '';
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === '*' && source[index + 1] === '*') {
      const slashAfter = source[index + 2] === '/';
      pattern += slashAfter ? '(?:.*/)?' : '.*';
      index += slashAfter ? 2 : 1;
    } else if (char === '*') pattern += '[^/]*';
    else if (char === '?') pattern += '[^/]';
    else pattern += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // `dir/**` also names `dir` itself, as chokidar's globs do.
  return new RegExp(`^${pattern.replace(/\/\(\?:\.\*\/\)\?$|\/\.\*$/, '(?:/.*)?')}$`);
}

/** Editors' swap, backup and lock files (vim's `4913` probe included). */
function editorFile(base: string): boolean {
  return base.endsWith('~') || base.endsWith('.swp') || base.endsWith('.swx') || base.startsWith('.#') || base === '4913';
}

export type IgnoredTest = (relative: string) => boolean;

/** The test for Strapi's list plus `extra` (the app's `admin.watchIgnoreFiles`), on paths relative to `appDir`. */
export function ignoredFiles(appDir: string, extra: Array<string | RegExp> = []): IgnoredTest {
  const matchers = [...STRAPI_IGNORED, ...extra].map((item) => (typeof item === 'string' ? globToRegExp(item) : item));
  return (relative) => {
    const posix = relative.split(path.sep).join('/');
    if (editorFile(posix.slice(posix.lastIndexOf('/') + 1))) return true;
    const absolute = path.join(appDir, relative).split(path.sep).join('/');
    return matchers.some((matcher, index) => matcher.test(posix) || (index >= STRAPI_IGNORED.length && matcher.test(absolute)));
  };
}

/**
 * The app's `admin.watchIgnoreFiles` (strings and regular expressions), read from its config as the app will read
 * it; none when the config cannot be read now (the app's own start reports why).
 */
export function appWatchIgnoreFiles(appDir: string): Array<string | RegExp> {
  try {
    // Required here, not at the top: main.ts requires every command to print its help, and core is most of a boot.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createEnv, getConfig, loadConfig, loadDotEnv } = require('@tessera/core') as typeof import('@tessera/core');
    loadDotEnv(appDir);
    const listed = getConfig<unknown>(loadConfig(appDir, createEnv()), 'admin.watchIgnoreFiles', []);
    return Array.isArray(listed) ? listed.filter((item): item is string | RegExp => typeof item === 'string' || item instanceof RegExp) : [];
  } catch {
    return [];
  }
}
