/**
 * An app made from an official Strapi template as create-strapi-app 4.26.2 makes one: its default `config/` files
 * and package.json, the template's `template/` folder merged over them, and the template's own third-party
 * dependencies installed from npm (`@strapi/*` excluded: Tessera provides them). Never committed here: the template
 * comes from the registry each run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { npmInstall } from './app-folder';

/** create-strapi-app 4.26.2's generated files (@strapi/generate-new 4.26.2, resources/files/js/config). */
const CREATE_STRAPI_APP_CONFIG: Record<string, string> = {
  'config/admin.js': `module.exports = ({ env }) => ({
  auth: { secret: env('ADMIN_JWT_SECRET') },
  apiToken: { salt: env('API_TOKEN_SALT') },
  transfer: { token: { salt: env('TRANSFER_TOKEN_SALT') } },
  flags: { nps: env.bool('FLAG_NPS', true), promoteEE: env.bool('FLAG_PROMOTE_EE', true) },
});
`,
  'config/api.js': `module.exports = {
  rest: { defaultLimit: 25, maxLimit: 100, withCount: true },
};
`,
  'config/middlewares.js': `module.exports = [
  'strapi::logger', 'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy',
  'strapi::query', 'strapi::body', 'strapi::session', 'strapi::favicon', 'strapi::public',
];
`,
  'config/plugins.js': `module.exports = () => ({});\n`,
  'config/server.js': `module.exports = ({ env }) => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  app: { keys: env.array('APP_KEYS') },
  webhooks: { populateRelations: env.bool('WEBHOOKS_POPULATE_RELATIONS', false) },
});
`,
};

/** The app folder (`<work>/app`) made from `template` (`@strapi/template-x@version`); remove `path.dirname(dir)` after. */
export function makeTemplateApp(template: string, name: string): string {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `tessera-${name}-`));
  const pack = spawnSync('npm', ['pack', template, '--silent'], { cwd: work, encoding: 'utf8', timeout: 120_000 });
  if (pack.status !== 0) throw new Error(`npm pack ${template}: ${pack.stderr}`);
  const tarball = path.join(work, pack.stdout.trim().split('\n').pop()!);
  spawnSync('tar', ['xzf', tarball, '-C', work]);
  const manifest = JSON.parse(fs.readFileSync(path.join(work, 'package/template.json'), 'utf8')) as { package: { dependencies: Record<string, string> } };
  const dir = path.join(work, 'app');
  for (const [file, text] of Object.entries(CREATE_STRAPI_APP_CONFIG)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.cpSync(path.join(work, 'package/template'), dir, { recursive: true });
  const strapiDependencies = Object.fromEntries(['@strapi/strapi', '@strapi/plugin-users-permissions', '@strapi/plugin-i18n', '@strapi/plugin-cloud'].map((pkg) => [pkg, '4.26.2']));
  const dependencies = { ...strapiDependencies, ...manifest.package.dependencies };
  const templateName = template.slice(0, template.lastIndexOf('@'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, version: '0.1.0', description: 'A Strapi application', dependencies, strapi: { uuid: 'ecosystem-test', template: templateName } }, null, 2));
  npmInstall(dir, Object.entries(manifest.package.dependencies).filter(([pkg]) => !pkg.startsWith('@strapi/')).map(([pkg, range]) => `${pkg}@${range}`));
  return dir;
}
