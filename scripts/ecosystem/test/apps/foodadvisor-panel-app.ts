/**
 * FoodAdvisor's `api/` with Strapi's admin panel, for the panel trial (foodadvisor-panel.test.ts): the vendored app
 * (config/ and src/, its `src/admin` customisations among them) booted on Tessera over one npm install of what its
 * package.json names — the Strapi plugins at 4.26.2, the third-party plugins at the versions its ranges resolve to —
 * beside `@strapi/admin` 4.26.2 and its peers. `tessera build` builds the panel with those plugins' admin sides
 * (kept in the shared panel cache by its stamp, so a run builds it once), and the app is seeded as
 * foodadvisor-content.ts seeds it for the client's requests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startApp, type TestApp } from '@tessera/testing';
import { installPackages, type Installation } from '../harness';
import { ADMIN_SIDES_OVERRIDES } from '../admin-sides/app';
import { panelInto } from '../../../../plugins/admin/test/panel-build';
import { seed } from './content-client';
import { SEED } from './foodadvisor-content';

const FIXTURE = path.join(__dirname, 'fixtures', 'foodadvisor', 'api');

export const EDITOR = { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@foodadvisor.test', password: 'Secret123' };

/**
 * FoodAdvisor's dependencies as an app made today installs them (its `@strapi/*` at 4.26.2, the judge's version),
 * and the panel's package with its peers. Its ranges (`^0.0.7`, `^1.9.4`…) are pinned to what they resolve to, so
 * the install and the panel build stay keyed by exact versions.
 */
export const FOODADVISOR_PANEL_PACKAGES: Record<string, string> = {
  '@strapi/admin': '4.26.2',
  '@strapi/plugin-i18n': '4.26.2',
  '@strapi/plugin-users-permissions': '4.26.2',
  '@strapi/plugin-upload': '4.26.2',
  '@strapi/plugin-seo': '1.9.9',
  '@ckeditor/strapi-plugin-ckeditor': '0.0.7',
  '@offset-dev/strapi-calendar': '0.0.10',
  '@webbio/strapi-plugin-scheduler': '0.1.3',
  'strapi-plugin-populate-deep': '1.1.2',
  'strapi-plugin-todo': '0.0.9',
  'fs-extra': '10.1.0',
  'unzip-stream': '0.3.1',
  'uuid-v4': '0.1.0',
  react: '18.3.1',
  'react-dom': '18.3.1',
  'react-router-dom': '5.3.4',
  'styled-components': '5.3.3',
};

export function installFoodAdvisorPanel(): Promise<Installation> {
  return installPackages(FOODADVISOR_PANEL_PACKAGES, ADMIN_SIDES_OVERRIDES);
}

/**
 * The panel's variables of the app's `.env`, as FoodAdvisor's README has it made from `api/.env.example`: its
 * `src/admin` buttons read `process.env.STRAPI_ADMIN_CLIENT_URL` and `…_PREVIEW_SECRET`, which Strapi's build (and
 * `tessera build`, which loads `.env` as Strapi's does) writes into the bundle. Without them the edit view throws
 * `process is not defined` on Strapi too: its webpack defines only the variables it has. (HOST and PORT, the
 * example's other lines, are left out: the test listens where it likes.)
 */
const PANEL_ENV = fs.readFileSync(path.join(FIXTURE, '.env.example'), 'utf8').split('\n').filter((line) => line.startsWith('STRAPI_ADMIN_'));

/** FoodAdvisor on SQLite with its built panel, seeded, and its first admin registered (`token`). */
export async function startFoodAdvisorPanel(): Promise<{ app: TestApp; token: string; ids: Record<string, number> }> {
  const { nodeModules } = await installFoodAdvisorPanel();
  // The boot loads `.env` into this process, and panelInto reads the variables from it; put back as they were after.
  const saved = PANEL_ENV.map((line) => line.split('=')[0]).map((name) => [name, process.env[name]] as const);
  try {
    return await startSeeded(nodeModules);
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

async function startSeeded(nodeModules: string): Promise<{ app: TestApp; token: string; ids: Record<string, number> }> {
  const pkg = JSON.parse(fs.readFileSync(path.join(FIXTURE, 'package.json'), 'utf8')) as Record<string, unknown>;
  const dependencies = Object.fromEntries(Object.entries(FOODADVISOR_PANEL_PACKAGES).sort(([a], [b]) => a.localeCompare(b, 'en')));
  const app = await startApp({
    dialect: 'sqlite',
    from: FIXTURE,
    nodeModules,
    files: { 'package.json': { ...pkg, dependencies }, '.env': `${PANEL_ENV.join('\n')}\n` },
    config: { plugins: { upload: { enabled: true }, i18n: { enabled: true }, 'users-permissions': { enabled: true } } },
  });
  try {
    await panelInto(app.dir, undefined, app.app.config.get<Record<string, unknown>>('plugins') ?? {});
    const ids = await seed(app.url, await app.fullAccessToken(), SEED);
    const token = (await app.post('/admin/register-admin', EDITOR)).body.data.token as string;
    return { app, token, ids };
  } catch (error) {
    await app.stop();
    throw error;
  }
}
