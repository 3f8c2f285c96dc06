/**
 * Where a new app's Tessera packages come from.
 *
 * An installed CLI (inside node_modules: Tessera from a registry) names its own
 * version of each package the app needs. A CLI run from a source checkout packs
 * the checkout's packages into the app (`tessera-packages/*.tgz`, by `npm pack`,
 * once per content: packed-workspaces.ts)
 * and depends on those files, so the app is self-contained: it installs and
 * runs wherever it is moved, with no path back to the checkout, and nothing is
 * looked up on a registry under Tessera's names (the bare `tessera` there is
 * someone else's package). The packages' own dependencies on each other
 * (`"@tessera/core": "0.1.0"`) are met by the packed copies, which npm places
 * at the top of the app's node_modules.
 */
import fs from 'node:fs';
import path from 'node:path';
import { packWorkspaces, type Workspace } from './packed-workspaces';

/** The folder of the packed packages, inside the app. */
export const PACKED_DIR = 'tessera-packages';

/** What an app needs besides what its plugins pull in: the CLI, the kernel and the REST adapter. */
const INSTALLED_NEEDS = ['@tessera/cli', '@tessera/core', '@tessera/plugin-rest'];

/** Workspaces that are not part of an app: the test harness. */
const NOT_RUNTIME = new Set(['@tessera/testing']);

/** The `dependencies` of a new app in `target`; packs the checkout's packages into it when the CLI runs from one. */
export function tesseraDependencies(target: string, cliDir: string): Record<string, string> {
  const root = checkoutRoot(cliDir);
  return root === undefined ? installedSpecs(cliDir) : packCheckout(root, target);
}

/** The repository root when `cliDir` is a source checkout's packages/cli, else undefined. */
function checkoutRoot(cliDir: string): string | undefined {
  const real = fs.realpathSync(cliDir);
  if (real.split(path.sep).includes('node_modules')) return undefined;
  const root = path.resolve(real, '../..');
  return fs.existsSync(path.join(root, 'package.json')) && fs.existsSync(path.join(root, 'packages/core/package.json')) ? root : undefined;
}

function installedSpecs(cliDir: string): Record<string, string> {
  const specs: Record<string, string> = {};
  for (const name of INSTALLED_NEEDS) {
    const manifest = name === '@tessera/cli' ? path.join(cliDir, 'package.json') : require.resolve(`${name}/package.json`);
    specs[name] = `^${(JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version}`;
  }
  return specs;
}

/** Every workspace of the checkout an app runs on (packages/ and plugins/, not the test harness). */
function runtimeWorkspaces(root: string): Workspace[] {
  const { workspaces = [] } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { workspaces?: string[] };
  return workspaces
    .filter((dir) => dir.startsWith('packages/') || dir.startsWith('plugins/'))
    .map((dir) => ({ dir, name: (JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8')) as { name: string }).name }))
    .filter((workspace) => !NOT_RUNTIME.has(workspace.name));
}

function packCheckout(root: string, target: string): Record<string, string> {
  const destination = path.join(target, PACKED_DIR);
  fs.mkdirSync(destination, { recursive: true });
  const packed = packWorkspaces(root, runtimeWorkspaces(root), destination);
  const specs: Record<string, string> = {};
  for (const { name, filename } of packed.sort((a, b) => a.name.localeCompare(b.name))) specs[name] = `file:${PACKED_DIR}/${filename}`;
  return specs;
}
