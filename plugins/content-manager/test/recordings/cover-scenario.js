/**
 * An article's cover set from the asset picker, as Strapi 4.26.2's panel does it (its requests captured in Chromium
 * on the peer, then replayed here): the image uploaded from the media library (`setup`, the admin's `POST /upload`;
 * on Tessera the test uploads the same file the same way), the edit view, the picker's requests (the library's
 * configuration, its files at the root — sorted as the picker sorts them —, its folders), a search and a type filter
 * in the picker, the save with the file's id, and the cover read back by the edit view and the list, then removed.
 */
const A = '/content-manager/collection-types/api::article.article';
const step = (title, method, path, body, extra = {}) => ({ title, method, path, ...(body === undefined ? {} : { body }), ...extra });
const ROOT = 'filters[$and][0][folderPath][$eq]=/&folder=';
const NO_RELATION = { disconnect: [], connect: [] };
const ARTICLE = {
  id: 1, title: 'Cover story', slug: 'cover-story', body: null, summary: null, featured: false, views: null, rating: null,
  publishDate: null, status: null, meta: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
  publishedAt: null, category: NO_RELATION, tags: NO_RELATION, author: NO_RELATION, seo: null,
};

module.exports = [
  step('upload the image', 'POST', '/upload', undefined, { setup: 'admin-upload', file: '../fixtures/cover.png' }),
  step('create the article', 'POST', A, { title: 'Cover story', slug: 'cover-story' }),
  step('open it: no cover', 'GET', `${A}/1`),
  step('the picker: the library configuration', 'GET', '/upload/configuration'),
  step('the picker: the files at the root, last updated first', 'GET', `/upload/files?page=1&sort=updatedAt:DESC&pageSize=10&${ROOT}`),
  step('the picker: the files at the root, last created first', 'GET', `/upload/files?page=1&sort=createdAt:DESC&pageSize=10&${ROOT}`),
  step('the picker: the folders at the root', 'GET', '/upload/folders?page=1&sort=createdAt:DESC&pageSize=10&filters[$and][0][parent][id][$null]=true&pagination[pageSize]=-1'),
  step('the picker: searched', 'GET', '/upload/files?page=1&sort=createdAt:DESC&pageSize=10&_q=cov&folder='),
  step('the picker: images only', 'GET', `/upload/files?page=1&sort=createdAt:DESC&pageSize=10&filters[$and][0][folderPath][$eq]=/&filters[$and][1][mime][$contains]=image&folder=`),
  step('the picker: videos only', 'GET', `/upload/files?page=1&sort=createdAt:DESC&pageSize=10&filters[$and][0][folderPath][$eq]=/&filters[$and][1][mime][$contains]=video&folder=`),
  step('save with the picked cover', 'PUT', `${A}/1`, { ...ARTICLE, cover: 1 }),
  step('the edit view: the cover', 'GET', `${A}/1`),
  step('the list: the cover', 'GET', `${A}?page=1&pageSize=10&sort=title:ASC`),
  step('a cover that does not exist', 'PUT', `${A}/1`, { ...ARTICLE, cover: 99 }),
  step('remove the cover', 'PUT', `${A}/1`, { ...ARTICLE, cover: null }),
];
