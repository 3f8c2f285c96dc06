/**
 * A localized type (the fixture's `page`: title, slug, body localized; order shared) through the entry routes:
 * entries created in a locale (`?locale=`), lists per locale, and an editor whose permissions hold only `fr`.
 * Recorded by record.js on Strapi 4.26.2 (locales en, default, fr and de); `setup` steps done by the test's own
 * means on Tessera; `as: 'author'` steps run as the French editor.
 */
const P = '/content-manager/collection-types/api::page.page';
const step = (title, method, path, body, extra = {}) => ({ title, method, path, ...(body === undefined ? {} : { body }), ...extra });
const editor = (title, method, path, body) => step(title, method, path, body, { as: 'author' });

const PERMISSIONS = ['create', 'read', 'update', 'delete'].map((action) => ({
  action: `plugin::content-manager.explorer.${action}`,
  subject: 'api::page.page',
  properties: action === 'delete' ? { locales: ['fr'] } : { fields: ['title', 'slug', 'body', 'order', 'category'], locales: ['fr'] },
  conditions: [],
}));

module.exports = [
  step('create in the default locale', 'POST', P, { title: 'Hello', slug: 'hello', order: 1 }),
  step('create in French', 'POST', `${P}?locale=fr`, { title: 'Bonjour', slug: 'bonjour', order: 2 }),
  step('create in an unknown locale', 'POST', `${P}?locale=xx`, { title: 'Nope' }),
  step('list in the default locale', 'GET', `${P}?page=1&pageSize=10&sort=id:ASC`),
  step('list in French', 'GET', `${P}?page=1&pageSize=10&sort=id:ASC&locale=fr`),
  step('list in German', 'GET', `${P}?page=1&pageSize=10&sort=id:ASC&locale=de`),
  step('update as the panel sends it (locale and localizations included)', 'PUT', `${P}/1`, {
    id: 1, title: 'Hello again', slug: 'hello', body: null, order: 1, locale: 'de', localizations: [{ id: 2, locale: 'fr' }],
    createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', publishedAt: null,
    category: { disconnect: [], connect: [] },
  }),
  step('create the role', 'POST', '/admin/roles', { name: 'French editor', description: 'fr only' }, { setup: 'role' }),
  step('give it permissions', 'PUT', '/admin/roles/4/permissions', { permissions: PERMISSIONS }, { setup: 'permissions' }),
  step('invite the editor', 'POST', '/admin/users', { firstname: 'Fran', lastname: 'Editor', email: 'fran@example.com', roles: [4] }, { setup: 'invite' }),
  step('the editor registers', 'POST', '/admin/register', { registrationToken: '<registrationToken>', userInfo: { firstname: 'Fran', lastname: 'Editor', password: 'Editor1234' } }, { setup: 'register' }),
  editor('lists French pages', 'GET', `${P}?page=1&pageSize=10&sort=id:ASC&locale=fr`),
  editor('lists English pages (none permitted)', 'GET', `${P}?page=1&pageSize=10&sort=id:ASC&locale=en`),
  editor('finds the English page', 'GET', `${P}/1`),
  editor('updates the English page', 'PUT', `${P}/1`, { title: 'Hijacked' }),
  editor('creates in French', 'POST', `${P}?locale=fr`, { title: 'Salut', slug: 'salut' }),
  editor('creates in English', 'POST', `${P}?locale=en`, { title: 'Hi', slug: 'hi' }),
  editor('deletes the English page', 'DELETE', `${P}/1`),
  editor('bulk deletes both', 'POST', `${P}/actions/bulkDelete`, { ids: [1, 2] }),
  step('what is left, in every locale', 'GET', `${P}?page=1&pageSize=10&sort=id:ASC&locale=all`),
];
