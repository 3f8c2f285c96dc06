/**
 * Several cases booted as one app, as a real app installs several plugins:
 * one boot per database instead of one per case (the suite's time budget).
 * Each case keeps its own files as its README has them; the three files that
 * several cases write are combined — `config/plugins.js` (each case's export,
 * merged), `config/permissions.js` (each role's list, joined) and
 * `src/index.js` (each case's `register`/`bootstrap`, in case order) — from
 * copies of each case's file kept beside the app (`ecosystem/<n>-<file>`).
 * Every case's tests run, named after their case, in case order.
 */
import type { EcosystemSuite } from './article-app';

const COMBINED = ['config/plugins.js', 'config/permissions.js', 'src/index.js'];

export function oneApp(title: string, suites: EcosystemSuite[]): EcosystemSuite {
  const files: EcosystemSuite['files'] = {};
  const parts: Record<string, string[]> = Object.fromEntries(COMBINED.map((name) => [name, []]));
  suites.forEach((suite, at) => {
    for (const [name, content] of Object.entries(suite.files)) {
      if (!COMBINED.includes(name)) {
        files[name] = content;
        continue;
      }
      const copy = `ecosystem/${at}-${name.replace('/', '-')}`;
      files[copy] = content;
      parts[name].push(`require('../${copy}')`);
    }
  });
  if (parts['config/plugins.js'].length > 0) {
    files['config/plugins.js'] = `const parts = [${parts['config/plugins.js'].join(', ')}];
module.exports = (context) => Object.assign({}, ...parts.map((part) => (typeof part === 'function' ? part(context) : part)));
`;
  }
  if (parts['config/permissions.js'].length > 0) {
    files['config/permissions.js'] = `const parts = [${parts['config/permissions.js'].join(', ')}];
const roles = [...new Set(parts.flatMap((part) => Object.keys(part)))];
module.exports = Object.fromEntries(roles.map((role) => [role, [...new Set(parts.flatMap((part) => part[role] ?? []))]]));
`;
  }
  if (parts['src/index.js'].length > 0) {
    files['src/index.js'] = `const parts = [${parts['src/index.js'].join(', ')}];
module.exports = {
  async register(context) { for (const part of parts) await part.register?.(context); },
  async bootstrap(context) { for (const part of parts) await part.bootstrap?.(context); },
};
`;
  }
  return {
    title,
    packages: Object.assign({}, ...suites.map((suite) => suite.packages)),
    needs: Object.assign({}, ...suites.map((suite) => suite.needs ?? {})),
    files,
    tests: Object.fromEntries(suites.flatMap((suite) => Object.entries(suite.tests).map(([name, test]) => [`${suite.title}: ${name}`, test]))),
  };
}
