/**
 * An Author (Strapi's default role: create/read/update/delete with the `admin::is-creator` condition, no publish)
 * through the entry routes: it sees and edits only the entries it created. Recorded by record.js on Strapi 4.26.2;
 * `setup` steps make the data and the Author there, and are done by the test's own means on Tessera (the admin's
 * user routes are another part's); `as: 'author'` steps run with the Author's token.
 */
const A = '/content-manager/collection-types/api::article.article';
const T = '/content-manager/collection-types/api::tag.tag';
const R = '/content-manager/relations/api::article.article';
const step = (title, method, path, body, extra = {}) => ({ title, method, path, ...(body === undefined ? {} : { body }), ...extra });
const author = (title, method, path, body) => step(title, method, path, body, { as: 'author' });
const end = (id) => ({ id, position: { end: true } });

module.exports = [
  step('the super admin creates a tag', 'POST', T, { name: 'Admin tag' }),
  step("the super admin creates an article", 'POST', A, { title: 'Admin article', slug: 'admin-article', tags: { connect: [end(1)] } }),
  step('invite the author', 'POST', '/admin/users', { firstname: 'Ann', lastname: 'Author', email: 'ann.author@example.com', roles: [3] }, { setup: 'invite' }),
  step('the author registers', 'POST', '/admin/register', { registrationToken: '<registrationToken>', userInfo: { firstname: 'Ann', lastname: 'Author', password: 'Author1234' } }, { setup: 'register' }),
  author('list: nothing of its own yet', 'GET', `${A}?page=1&pageSize=10&sort=id:ASC`),
  author('creates a tag', 'POST', T, { name: 'Author tag' }),
  author('creates an article', 'POST', A, { title: 'Author article', slug: 'author-article', tags: { connect: [end(2)] } }),
  author('list: its own article only', 'GET', `${A}?page=1&pageSize=10&sort=id:ASC`),
  author('search: its own only', 'GET', `${A}?page=1&pageSize=10&sort=id:ASC&_q=article`),
  author("find its own", 'GET', `${A}/2`),
  author("find the admin's", 'GET', `${A}/1`),
  author("update its own", 'PUT', `${A}/2`, { title: 'Author article, edited' }),
  author("update the admin's", 'PUT', `${A}/1`, { title: 'Taken over' }),
  author("publish its own (no publish permission)", 'POST', `${A}/2/actions/publish`),
  author("bulk publish (no publish permission)", 'POST', `${A}/actions/bulkPublish`, { ids: [2] }),
  author("delete the admin's", 'DELETE', `${A}/1`),
  author("bulk delete the admin's", 'POST', `${A}/actions/bulkDelete`, { ids: [1] }),
  author("count draft relations of the admin's", 'GET', `${A}/1/actions/countDraftRelations`),
  author('tag picker: its own tags only', 'GET', `${R}/tags?pageSize=10&page=1`),
  author("tag picker for the admin's article", 'GET', `${R}/tags?pageSize=10&page=1&entityId=1`),
  author("tags of its own article", 'GET', `${R}/2/tags?pageSize=5&page=1`),
  author("tags of the admin's article", 'GET', `${R}/1/tags?pageSize=5&page=1`),
  author("clone its own", 'POST', `${A}/clone/2`, { title: 'Author copy', slug: 'author-copy' }),
  step("the admin still has its article", 'GET', `${A}/1`),
  // Where Tessera answers otherwise, on purpose (entries-author.test.ts says why): the last two steps.
  author("bulk delete its own and the admin's", 'POST', `${A}/actions/bulkDelete`, { ids: [1, 3] }),
  author("clone the admin's", 'POST', `${A}/clone/1`, { title: 'Copy', slug: 'copy' }),
];
