/**
 * The content manager's model routes, step by step, as the panel calls them: run by record.js against Strapi 4.26.2
 * (shared/strapi4-peer with `SEED=20`: articles "Article 1"… with slugs article-1…article-20, one super admin) to
 * record the answers, and replayed by layouts-recorded.test.ts against Tessera. Steps run in order (the PUTs change
 * what later steps read). Plain data: no code runs here.
 */
const CM = '/content-manager';
const NOTE = `${CM}/content-types/api::note.note/configuration`;
const ARTICLE = `${CM}/content-types/api::article.article/configuration`;
const HOMEPAGE = `${CM}/content-types/api::homepage.homepage/configuration`;
const SEO = `${CM}/components/shared.seo/configuration`;
const step = (title, method, path, body) => ({ title, method, path, ...(body === undefined ? {} : { body }) });
const TYPES = ['api::article.article', 'api::category.category', 'api::homepage.homepage', 'api::note.note', 'api::page.page', 'api::tag.tag', 'api::writer.writer', 'plugin::users-permissions.user', 'plugin::i18n.locale', 'admin::user'];

const NOTE_SETTINGS = { bulkable: false, filterable: true, searchable: true, pageSize: 20, mainField: 'title', defaultSortBy: 'score', defaultSortOrder: 'DESC' };
const NOTE_LAYOUTS = { list: ['id', 'title', 'score'], edit: [[{ name: 'title', size: 8 }, { name: 'score', size: 4 }], [{ name: 'secret', size: 6 }]] };
const meta = (label, visible = true) => ({ edit: { label, description: '', placeholder: '', visible, editable: true }, list: { label, searchable: true, sortable: true } });

module.exports = [
  step('init: field sizes, components, content types', 'GET', `${CM}/init`),
  step('every content type', 'GET', `${CM}/content-types`),
  step('single types only', 'GET', `${CM}/content-types?kind=singleType`),
  step('collection types only', 'GET', `${CM}/content-types?kind=collectionType`),
  step('an unknown kind', 'GET', `${CM}/content-types?kind=bogus`),
  step('components', 'GET', `${CM}/components`),
  step('every content type settings', 'GET', `${CM}/content-types-settings`),
  ...TYPES.map((uid) => step(`${uid} configuration (generated)`, 'GET', `${CM}/content-types/${uid}/configuration`)),
  step('shared.seo configuration (generated)', 'GET', SEO),
  step('an unknown content type configuration', 'GET', `${CM}/content-types/api::nope.nope/configuration`),
  step('an unknown component configuration', 'GET', `${CM}/components/shared.nope/configuration`),

  step('save the note view as the panel sends it', 'PUT', NOTE, { layouts: NOTE_LAYOUTS, metadatas: { id: { edit: {}, list: { label: 'id', searchable: true, sortable: true } }, title: meta('Heading'), secret: meta('secret'), score: meta('Score', true) }, settings: NOTE_SETTINGS }),
  step('the saved note view', 'GET', NOTE),
  step('settings only', 'PUT', NOTE, { settings: { ...NOTE_SETTINGS, pageSize: 50 } }),
  step('extra metadata keys and options are kept', 'PUT', NOTE, { metadatas: { bogus: { anything: 1 } }, options: { extra: true } }),
  step('the note view after both', 'GET', NOTE),
  step('a relation main field of the target', 'PUT', ARTICLE, { metadatas: { category: { edit: { mainField: 'id' }, list: { label: 'Category' } } } }),
  step('the article view after it', 'GET', ARTICLE),
  step('a single type view', 'PUT', HOMEPAGE, { settings: { bulkable: true, filterable: true, searchable: false, pageSize: 10 } }),
  step('every content type settings after the saves', 'GET', `${CM}/content-types-settings`),
  step('save the seo component view', 'PUT', SEO, { layouts: { list: ['metaTitle'], edit: [[{ name: 'metaDescription', size: 12 }], [{ name: 'metaTitle', size: 6 }]] }, metadatas: { metaTitle: meta('Meta title') } }),
  step('the article view shows the saved component view', 'GET', ARTICLE),

  step('refused: an unknown top-level key', 'PUT', NOTE, { foo: 1, settings: { bulkable: 'yes', filterable: true, searchable: true, pageSize: 10 } }),
  step('refused: settings missing and out of range', 'PUT', NOTE, { settings: { pageSize: 5.5 } }),
  step('refused: settings over the maximum, unknown key, bad main field and sort', 'PUT', NOTE, { settings: { bulkable: true, filterable: true, searchable: true, pageSize: 101, mainField: 'secretive', defaultSortBy: 'nope', defaultSortOrder: 'UP', foo: 1 } }),
  step('refused: a default sort through a relation that is not sortable there', 'PUT', ARTICLE, { settings: { bulkable: true, filterable: true, searchable: true, pageSize: 10, defaultSortBy: 'author[articles]' } }),
  step('accepted: a default sort through a relation', 'PUT', ARTICLE, { settings: { bulkable: true, filterable: true, searchable: true, pageSize: 10, defaultSortBy: 'author[name]' } }),
  step('refused: layouts without edit, a list field not listable', 'PUT', NOTE, { layouts: { list: ['body', 'title', 7] } }),
  step('refused: edit rows of wrong shapes', 'PUT', NOTE, { layouts: { list: [], edit: [[{ name: 'title', size: '6' }, { name: 'createdAt', size: 0 }, { size: 1.5, extra: true }], 'row', null] } }),
  step('refused: metadatas of wrong shapes', 'PUT', ARTICLE, { metadatas: { title: { edit: { label: 3, visible: 'no', other: 1 } }, slug: { list: {} }, category: { edit: { mainField: 'nope' }, list: { mainField: 'name' } }, seo: 'x' } }),
  step('refused: parts of the wrong type', 'PUT', NOTE, { settings: [], metadatas: 'x', layouts: 3, options: null }),
  step('refused: an array body', 'PUT', NOTE, [1]),
  step('refused: a component view with an unknown field', 'PUT', SEO, { layouts: { list: ['id', 'nope'], edit: [[{ name: 'metaTitle', size: 13 }]] } }),
  step('a component view with an unknown uid', 'PUT', `${CM}/components/shared.nope/configuration`, {}),
  step('a content type view with an unknown uid', 'PUT', `${CM}/content-types/api::nope.nope/configuration`, {}),

  step('uid: generate from the target field', 'POST', `${CM}/uid/generate`, { contentTypeUID: 'api::article.article', field: 'slug', data: { title: 'Hello World Ünïcödé & Co!' } }),
  step('uid: generate, transliterating', 'POST', `${CM}/uid/generate`, { contentTypeUID: 'api::article.article', field: 'slug', data: { title: '  Déjà Vu: I’m <b>bold</b> 100% — ÆØÅ ß Привет Ελλάδα  ' } }),
  step('uid: generate a taken value', 'POST', `${CM}/uid/generate`, { contentTypeUID: 'api::article.article', field: 'slug', data: { title: 'Article 1' } }),
  step('uid: generate from the model name', 'POST', `${CM}/uid/generate`, { contentTypeUID: 'api::article.article', field: 'slug', data: { title: '' } }),
  step('uid: generate with a number title', 'POST', `${CM}/uid/generate`, { contentTypeUID: 'api::article.article', field: 'slug', data: { title: 42 } }),
  step('uid: a localized uid', 'POST', `${CM}/uid/generate`, { contentTypeUID: 'api::page.page', field: 'slug', data: { title: 'Über uns' } }),
  step('uid: not a uid field', 'POST', `${CM}/uid/generate`, { contentTypeUID: 'api::article.article', field: 'title', data: {} }),
  step('uid: no such field', 'POST', `${CM}/uid/generate`, { contentTypeUID: 'api::homepage.homepage', field: 'slug', data: {} }),
  step('uid: an unknown content type', 'POST', `${CM}/uid/generate`, { contentTypeUID: 'api::nope.nope', field: 'slug', data: {} }),
  step('uid: an empty body', 'POST', `${CM}/uid/generate`, {}),
  step('uid: wrong types', 'POST', `${CM}/uid/generate`, { contentTypeUID: 1, field: '', data: null }),
  step('uid: a free value', 'POST', `${CM}/uid/check-availability`, { contentTypeUID: 'api::article.article', field: 'slug', value: 'fresh-one' }),
  step('uid: a taken value', 'POST', `${CM}/uid/check-availability`, { contentTypeUID: 'api::article.article', field: 'slug', value: 'article-1' }),
  step('uid: a value that is not a uid', 'POST', `${CM}/uid/check-availability`, { contentTypeUID: 'api::article.article', field: 'slug', value: 'bad value' }),
  step('uid: no value', 'POST', `${CM}/uid/check-availability`, { contentTypeUID: 'api::article.article', field: 'slug', value: '' }),
  step('uid: an array body', 'POST', `${CM}/uid/check-availability`, [1]),
];
