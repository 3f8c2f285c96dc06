/**
 * A new locale version of an entry, as Strapi 4.26.2's panel makes one (its requests captured in Chromium on the
 * peer, then replayed here): the list switched to French (`locale=fr`, the panel's `plugins[i18n][locale]`), the
 * English entry's locale picker set to French (get-non-localized-fields), "fill in from another locale" (the English
 * entry read whole), and the save (`?locale=fr&relatedEntityId=1`, the body as the panel sends it: the copied
 * `locale` and a `localizations` list the server replaces). Then the refusals, a shared field written through one
 * version, a third version from the second, and an editor whose permissions hold only `fr` (`as: 'author'`).
 * Recorded by record.js on the peer fixture (page: title, slug, body localized; order shared; locales en, fr, de).
 */
const P = '/content-manager/collection-types/api::page.page';
const F = '/i18n/content-manager/actions/get-non-localized-fields';
const step = (title, method, path, body, extra = {}) => ({ title, method, path, ...(body === undefined ? {} : { body }), ...extra });
const editor = (title, method, path, body) => step(title, method, path, body, { as: 'author' });
const NO_RELATION = { disconnect: [], connect: [] };

const PERMISSIONS = ['create', 'read', 'update', 'delete'].map((action) => ({
  action: `plugin::content-manager.explorer.${action}`,
  subject: 'api::page.page',
  properties: action === 'delete' ? { locales: ['fr'] } : { fields: ['title', 'slug', 'body', 'order', 'category'], locales: ['fr'] },
  conditions: [],
}));

module.exports = [
  step('create in the list locale, English', 'POST', `${P}?locale=en`, { title: 'Hello', slug: 'hello', body: 'Some text', order: 7, category: NO_RELATION }),
  step('the list switched to French', 'GET', `${P}?page=1&pageSize=10&sort=title:ASC&locale=fr`),
  step('open the English entry', 'GET', `${P}/1?locale=en`),
  step('pick French: the non-localized fields', 'POST', F, { model: 'api::page.page', id: '1', locale: 'fr' }),
  step('fill in from English: the entry read whole', 'GET', `${P}/1`),
  step('save the French version', 'POST', `${P}?locale=fr&relatedEntityId=1`, {
    title: 'Bonjour', slug: 'bonjour', body: 'Some text', order: 7, locale: 'en', localizations: [1, { id: null, locale: 'fr' }], category: NO_RELATION,
  }),
  step('the saved French version', 'GET', `${P}/2?locale=fr&relatedEntityId=1`),
  step('the English entry lists it', 'GET', `${P}/1?locale=en`),
  step('the French list', 'GET', `${P}?page=1&pageSize=10&sort=title:ASC&locale=fr`),
  step('the English list', 'GET', `${P}?page=1&pageSize=10&sort=title:ASC&locale=en`),
  step('a second French version is refused', 'POST', `${P}?locale=fr&relatedEntityId=1`, { title: 'Encore', slug: 'encore', order: 7 }),
  step('a version of an entry that does not exist', 'POST', `${P}?locale=de&relatedEntityId=99`, { title: 'Hallo', slug: 'hallo' }),
  step('a version in a locale that does not exist', 'POST', `${P}?locale=xx&relatedEntityId=1`, { title: 'Nope' }),
  step('the shared field written through the French version', 'PUT', `${P}/2`, {
    id: 2, title: 'Bonjour', slug: 'bonjour', body: 'Some text', order: 9, locale: 'fr', localizations: [{ id: 1, locale: 'en' }], category: NO_RELATION,
  }),
  step('reaches the English entry', 'GET', `${P}/1?locale=en`),
  step('pick German from the French version', 'POST', F, { model: 'api::page.page', id: '2', locale: 'de' }),
  step('save the German version', 'POST', `${P}?locale=de&relatedEntityId=2`, {
    title: 'Hallo', slug: 'hallo', order: 9, localizations: [2, 1], category: NO_RELATION,
  }),
  step('an English-only entry', 'POST', `${P}?locale=en`, { title: 'World', slug: 'world', order: 3, category: NO_RELATION }),
  step('every locale', 'GET', `${P}?page=1&pageSize=10&sort=id:ASC&locale=all`),
  step('create the role', 'POST', '/admin/roles', { name: 'French editor', description: 'fr only' }, { setup: 'role' }),
  step('give it permissions', 'PUT', '/admin/roles/4/permissions', { permissions: PERMISSIONS }, { setup: 'permissions' }),
  step('invite the editor', 'POST', '/admin/users', { firstname: 'Fran', lastname: 'Editor', email: 'fran@example.com', roles: [4] }, { setup: 'invite' }),
  step('the editor registers', 'POST', '/admin/register', { registrationToken: '<registrationToken>', userInfo: { firstname: 'Fran', lastname: 'Editor', password: 'Editor1234' } }, { setup: 'register' }),
  editor('its list switched to French', 'GET', `${P}?page=1&pageSize=10&sort=title:ASC&locale=fr`),
  editor('picks French for the English-only entry', 'POST', F, { model: 'api::page.page', id: '4', locale: 'fr' }),
  editor('picks German for it (not permitted)', 'POST', F, { model: 'api::page.page', id: '4', locale: 'de' }),
  editor('saves the French version', 'POST', `${P}?locale=fr&relatedEntityId=4`, { title: 'Monde', slug: 'monde', order: 3, localizations: [4], category: NO_RELATION }),
  editor('finds it', 'GET', `${P}/5?locale=fr&relatedEntityId=4`),
  editor('saves a German version (not permitted)', 'POST', `${P}?locale=de&relatedEntityId=4`, { title: 'Welt', slug: 'welt', order: 3, localizations: [4, 5], category: NO_RELATION }),
  step('the English-only entry now has French', 'GET', `${P}/4?locale=en`),
];
