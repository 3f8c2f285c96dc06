#!/usr/bin/env node
/**
 * Records Strapi 4.26.2's answers to the panel's settings routes — Users & Permissions (roles, permissions, routes,
 * providers, email templates, advanced settings), Email (settings, test) and the Enterprise-only routes a
 * community-edition panel may call — into the tests' data files:
 *   plugins/users-permissions/test/strapi-4.26.2-admin-settings.json
 *   plugins/email/test/strapi-4.26.2-admin-email.json
 *   plugins/admin/test/recorded/strapi-4.26.2-ce-leftovers.json
 * Timestamps become `<timestamp>`, the peer's origin `<server>`; permission trees and routes are cut to the peer
 * fixture's `api::article` and the users-permissions plugin.
 *
 *   PORT=1346 DATABASE_FILENAME=.tmp/settings-up.db SERVE_ADMIN_PANEL=true RESET_DB=1 SEED=20 \
 *     bash ../shared/strapi4-peer/start.sh
 *   PEER_URL=http://127.0.0.1:1346 node scripts/strapi-peer/record-settings.js
 *
 * On a fresh peer database (it registers the first admin). No request here sends mail: the peer's default provider
 * (sendmail) would try the network.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const base = process.env.PEER_URL ?? 'http://127.0.0.1:1346';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const out = [];
let token;

async function call(name, method, urlPath, body, { auth = true } = {}) {
  const headers = { accept: 'application/json' };
  if (auth) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(base + urlPath, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text.startsWith('<!doctype html>') ? '(the panel index.html)' : text;
  }
  const contentType = response.headers.get('content-type') ?? '';
  out.push({ name, method, path: urlPath, ...(body === undefined ? {} : { body }), status: response.status, ...(contentType.startsWith('application/json') ? {} : { contentType: contentType.split(';')[0] }), response: parsed });
  console.log(response.status, method, urlPath);
  return parsed;
}

const normalise = (value) =>
  JSON.parse(JSON.stringify(value), (_key, item) => (typeof item === 'string' ? (ISO.test(item) ? '<timestamp>' : item.replace(base, '<server>')) : item));

function cut(exchange) {
  const keep = (tree) => ({ 'api::article': tree['api::article'], 'plugin::users-permissions': tree['plugin::users-permissions'] });
  if (exchange.name === 'permissions') exchange.response = { permissions: keep(exchange.response.permissions) };
  if (exchange.name === 'routes') exchange.response = { routes: keep(exchange.response.routes) };
  if (exchange.name.startsWith('role get') && exchange.response.role) exchange.response.role.permissions = keep(exchange.response.role.permissions);
  return exchange;
}

async function main() {
  const registered = await (await fetch(`${base}/admin/register-admin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ firstname: 'Ada', lastname: 'Admin', email: 'ada@example.com', password: 'Passw0rd!x' }) })).json();
  token = registered.data?.token;
  if (!token) throw new Error(`register-admin: ${JSON.stringify(registered)} (start the peer with RESET_DB=1)`);
  const perms = { 'api::article': { controllers: { article: { find: { enabled: true, policy: '' }, findOne: { enabled: true, policy: '' }, create: { enabled: false, policy: '' } } } } };
  await call('roles list', 'GET', '/users-permissions/roles');
  await call('role get authenticated', 'GET', '/users-permissions/roles/1');
  await call('role get missing', 'GET', '/users-permissions/roles/999');
  await call('role get not a number', 'GET', '/users-permissions/roles/abc');
  await call('permissions', 'GET', '/users-permissions/permissions');
  await call('routes', 'GET', '/users-permissions/routes');
  await call('policies', 'GET', '/users-permissions/policies');
  await call('role create empty', 'POST', '/users-permissions/roles', {});
  await call('role create', 'POST', '/users-permissions/roles', { name: 'Editor Crew', description: 'Edits articles', permissions: perms });
  await call('role create no name', 'POST', '/users-permissions/roles', { description: 'x' });
  const list = await call('roles list after create', 'GET', '/users-permissions/roles');
  const editor = list.roles.find((role) => role.type === 'editor_crew');
  await call('role get created', 'GET', `/users-permissions/roles/${editor.id}`);
  await call('role update empty', 'PUT', `/users-permissions/roles/${editor.id}`, {});
  await call('role update', 'PUT', `/users-permissions/roles/${editor.id}`, { name: 'Editors', description: 'Edit', type: 'ignored', permissions: { 'api::article': { controllers: { article: { find: { enabled: true }, create: { enabled: true } } } } } });
  await call('role get updated', 'GET', `/users-permissions/roles/${editor.id}`);
  await call('role update missing', 'PUT', '/users-permissions/roles/999', { name: 'Nope' });
  await call('role delete public', 'DELETE', '/users-permissions/roles/2');
  await call('role delete missing', 'DELETE', '/users-permissions/roles/999');
  await call('role delete', 'DELETE', `/users-permissions/roles/${editor.id}`);
  await call('role delete authenticated', 'DELETE', '/users-permissions/roles/1', undefined, { auth: false });
  const providers = await call('providers', 'GET', '/users-permissions/providers');
  await call('providers update empty', 'PUT', '/users-permissions/providers', {});
  const grant = structuredClone(providers);
  for (const provider of Object.values(grant)) delete provider.redirectUri;
  const next = structuredClone(grant);
  Object.assign(next.github, { enabled: true, key: 'gh-key', secret: 'gh-secret' });
  await call('providers update', 'PUT', '/users-permissions/providers', { providers: next });
  await call('providers after update', 'GET', '/users-permissions/providers');
  const withGithub = structuredClone(next);
  // The Email provider off: the password login is refused (recorded), then back on.
  await fetch(`${base}/users-permissions/providers`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ providers: { ...withGithub, email: { ...withGithub.email, enabled: false } } }) });
  await call('login with the email provider disabled', 'POST', '/api/auth/local', { identifier: 'nobody', password: 'Passw0rd!' }, { auth: false });
  out[out.length - 1].body = { identifier: 'nobody', password: 'Passw0rd!' };
  await fetch(`${base}/users-permissions/providers`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ providers: withGithub }) });
  const templates = await call('email templates', 'GET', '/users-permissions/email-templates');
  await call('email templates update empty', 'PUT', '/users-permissions/email-templates', {});
  const bad = structuredClone(templates);
  bad.reset_password.options.message = '<p><%= process.env.SECRET %></p>';
  await call('email templates update invalid', 'PUT', '/users-permissions/email-templates', { 'email-templates': bad });
  const evaluate = structuredClone(templates);
  evaluate.reset_password.options.message = '<% console.log(1) %>';
  await call('email templates update evaluate', 'PUT', '/users-permissions/email-templates', { 'email-templates': evaluate });
  const good = structuredClone(templates);
  good.reset_password.options.message = '<p>Hello <%= USER.username %>, reset here: <%= URL %>?code=<%= TOKEN %></p>';
  good.reset_password.options.object = 'Reset for <%= USER.username %>';
  await call('email templates update', 'PUT', '/users-permissions/email-templates', { 'email-templates': good });
  await call('email templates after update', 'GET', '/users-permissions/email-templates');
  await call('advanced', 'GET', '/users-permissions/advanced');
  await call('advanced update empty', 'PUT', '/users-permissions/advanced', {});
  await call('advanced update', 'PUT', '/users-permissions/advanced', { unique_email: true, allow_register: false, email_confirmation: false, email_reset_password: 'https://front.test/reset', email_confirmation_redirection: '', default_role: 'authenticated' });
  await call('advanced after update', 'GET', '/users-permissions/advanced');
  await call('register when refused', 'POST', '/api/auth/local/register', { username: 'newbie', email: 'newbie@example.com', password: 'Passw0rd!' }, { auth: false });
  await call('advanced restore', 'PUT', '/users-permissions/advanced', { unique_email: true, allow_register: true, email_confirmation: false, email_reset_password: null, email_confirmation_redirection: null, default_role: 'authenticated' });
  await call('email settings', 'GET', '/email/settings');
  await call('email test no recipient', 'POST', '/email/test', {});
  await call('roles anonymous', 'GET', '/users-permissions/roles', undefined, { auth: false });
  await call('email settings anonymous', 'GET', '/email/settings', undefined, { auth: false });
  await call('advanced anonymous', 'GET', '/users-permissions/advanced', undefined, { auth: false });
  await call('content-api roles anonymous', 'GET', '/api/users-permissions/roles', undefined, { auth: false });
  await call('content-api roles admin token', 'GET', '/api/users-permissions/roles');
  await call('license limit information', 'GET', '/admin/license-limit-information');
  await call('license limit information put', 'PUT', '/admin/license-limit-information', {});
  await call('providers options', 'GET', '/admin/providers/options');
  await call('providers options put', 'PUT', '/admin/providers/options', {});
  await call('sso locked', 'GET', '/admin/providers/isSSOLocked');
  await call('sso providers', 'GET', '/admin/providers');

  const exchanges = out.map(normalise).map(cut);
  const email = ['email settings', 'email test no recipient', 'email settings anonymous'];
  const ce = ['license limit information', 'license limit information put', 'providers options', 'providers options put', 'sso locked', 'sso providers'];
  const write = (file, recordedOn, list) => fs.writeFileSync(path.join(ROOT, file), `${JSON.stringify({ recordedOn, exchanges: list }, null, 2)}\n`);
  write(
    'plugins/users-permissions/test/strapi-4.26.2-admin-settings.json',
    'Strapi 4.26.2 (the peer, SQLite, its fixture model: api::article …), 2026-11-29; timestamps as <timestamp>, the peer origin as <server>; permission trees cut to api::article and plugin::users-permissions',
    exchanges.filter((exchange) => !email.includes(exchange.name) && !ce.includes(exchange.name)),
  );
  write('plugins/email/test/strapi-4.26.2-admin-email.json', 'Strapi 4.26.2 (the peer, SQLite, default email config: sendmail), 2026-11-29', exchanges.filter((exchange) => email.includes(exchange.name)));
  write(
    'plugins/admin/test/recorded/strapi-4.26.2-ce-leftovers.json',
    'Strapi 4.26.2 community edition (the peer, its built panel served), 2026-11-29: the Enterprise-only routes the panel may call are not routes there; a GET under /admin is the panel page, another method 405',
    exchanges.filter((exchange) => ce.includes(exchange.name)),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
