/**
 * An entry with media through the entry routes: the panel sends a file's id (its `cleanData`), answers carry the
 * file with its folder. Recorded by record.js on Strapi 4.26.2 after a setup upload of `notes.txt` (POST /api/upload
 * with the peer's full-access API token; on Tessera the test uploads the same bytes the same way).
 */
const A = '/content-manager/collection-types/api::article.article';
const step = (title, method, path, body, extra = {}) => ({ title, method, path, ...(body === undefined ? {} : { body }), ...extra });

module.exports = [
  step('upload a file', 'POST', '/api/upload', undefined, { setup: 'upload' }),
  step('create an article with a cover', 'POST', A, { title: 'With a cover', slug: 'with-a-cover', cover: 1 }),
  step('find it', 'GET', `${A}/1`),
  step('list it', 'GET', `${A}?page=1&pageSize=10&sort=id:ASC`),
  step('remove the cover', 'PUT', `${A}/1`, { cover: null }),
];
