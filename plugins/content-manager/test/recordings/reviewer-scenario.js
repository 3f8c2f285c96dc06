/**
 * A role with field permissions (read: `title`, `tags`, `seo.metaTitle`; update: `title`; tags: `name`) never
 * receives another field, nor writes one. Recorded by record.js on Strapi 4.26.2; `setup` steps (the role, its
 * permissions, the invitation and registration) are done by the test's own means on Tessera.
 */
const A = '/content-manager/collection-types/api::article.article';
const T = '/content-manager/collection-types/api::tag.tag';
const R = '/content-manager/relations/api::article.article';
const step = (title, method, path, body, extra = {}) => ({ title, method, path, ...(body === undefined ? {} : { body }), ...extra });
const reviewer = (title, method, path, body) => step(title, method, path, body, { as: 'author' });
const end = (id) => ({ id, position: { end: true } });

const PERMISSIONS = [
  { action: 'plugin::content-manager.explorer.read', subject: 'api::article.article', properties: { fields: ['title', 'tags', 'seo.metaTitle'] }, conditions: [] },
  { action: 'plugin::content-manager.explorer.update', subject: 'api::article.article', properties: { fields: ['title'] }, conditions: [] },
  { action: 'plugin::content-manager.explorer.read', subject: 'api::tag.tag', properties: { fields: ['name'] }, conditions: [] },
];

module.exports = [
  step('the super admin creates a tag', 'POST', T, { name: 'Green' }),
  step('the super admin creates an article', 'POST', A, {
    title: 'Full article', slug: 'full-article', summary: 'Not for reviewers', views: 9,
    seo: { metaTitle: 'Meta title', metaDescription: 'Meta description' },
    tags: { connect: [end(1)] },
  }),
  step('create the role', 'POST', '/admin/roles', { name: 'Reviewer', description: 'Reads titles' }, { setup: 'role' }),
  step('give it permissions', 'PUT', '/admin/roles/4/permissions', { permissions: PERMISSIONS }, { setup: 'permissions' }),
  step('invite the reviewer', 'POST', '/admin/users', { firstname: 'Rita', lastname: 'Reviewer', email: 'rita@example.com', roles: [4] }, { setup: 'invite' }),
  step('the reviewer registers', 'POST', '/admin/register', { registrationToken: '<registrationToken>', userInfo: { firstname: 'Rita', lastname: 'Reviewer', password: 'Reviewer1234' } }, { setup: 'register' }),
  reviewer('list: permitted fields only', 'GET', `${A}?page=1&pageSize=10&sort=id:ASC`),
  reviewer('sort by a field it may not read', 'GET', `${A}?page=1&pageSize=10&sort=views:DESC`),
  reviewer('filter on a field it may not read', 'GET', `${A}?page=1&pageSize=10&filters[$and][0][views][$eq]=1`),
  reviewer('find: permitted fields only', 'GET', `${A}/1`),
  reviewer('update: only the title is written', 'PUT', `${A}/1`, { title: 'Retitled', summary: 'Overwritten?', views: 1, seo: { metaTitle: 'x', metaDescription: 'y' } }),
  reviewer('create (no create permission)', 'POST', A, { title: 'New' }),
  reviewer('tags of the article', 'GET', `${R}/1/tags?pageSize=5&page=1`),
  reviewer('tag picker', 'GET', `${R}/tags?pageSize=10&page=1`),
  reviewer('category picker (no read permission on categories)', 'GET', `${R}/category?pageSize=10&page=1`),
  step('the super admin sees the fields the update left alone', 'GET', `${A}/1`),
];
