/**
 * Stored configurations as they would be after the model changed under them, for record-sync.js to write into a
 * Strapi 4.26.2 peer's core store before a restart (Strapi syncs them at boot) and for sync.test.ts to write into
 * Tessera's: attributes removed (`removed`), added (note's `score`, seo's `metaDescription`), a main field and
 * default sort that no longer apply, a field at a size its type may not take, Strapi 4.0's `editRelations`, a
 * relation main field its target does not list, and a type that no longer exists. Plain data.
 */
const meta = (label, extra = {}) => ({ edit: { label, description: '', placeholder: '', visible: true, editable: true, ...extra }, list: { label, searchable: true, sortable: true } });
const ID = { edit: {}, list: { label: 'id', searchable: true, sortable: true } };

module.exports = {
  'content_types::api::note.note': {
    settings: { bulkable: true, filterable: false, searchable: true, pageSize: 20, mainField: 'removed', defaultSortBy: 'removed', defaultSortOrder: 'DESC' },
    metadatas: { id: ID, title: meta('Heading', { mainField: 'title' }), secret: meta('Secret'), removed: meta('Removed') },
    layouts: { list: ['id', 'removed', 'title'], edit: [[{ name: 'title', size: 6 }, { name: 'removed', size: 6 }], [{ name: 'secret', size: 13 }]] },
    uid: 'api::note.note',
  },
  'content_types::api::article.article': {
    settings: { bulkable: true, filterable: true, searchable: true, pageSize: 10, mainField: 'body', defaultSortBy: 'author[name]', defaultSortOrder: 'ASC' },
    metadatas: { id: ID, title: meta('Title'), category: meta('Category', { mainField: 'nonexistent' }), tags: meta('Tags', { mainField: 'articles' }), body: { edit: { label: 'Body' }, list: { label: 'Body', searchable: true, sortable: true } } },
    layouts: { list: ['title', 'body'], editRelations: ['tags', 'author'], edit: [[{ name: 'title', size: 6 }], [{ name: 'body', size: 6 }]] },
    uid: 'api::article.article',
  },
  'components::shared.seo': {
    settings: { bulkable: true, filterable: true, searchable: true, pageSize: 10, mainField: 'metaTitle', defaultSortBy: 'metaTitle', defaultSortOrder: 'ASC' },
    metadatas: { id: ID, metaTitle: meta('SEO title') },
    layouts: { list: ['id', 'metaTitle'], edit: [[{ name: 'metaTitle', size: 12 }]] },
    uid: 'shared.seo',
    isComponent: true,
  },
  'content_types::api::gone.gone': {
    settings: { bulkable: true, filterable: true, searchable: true, pageSize: 10, mainField: 'id', defaultSortBy: 'id', defaultSortOrder: 'ASC' },
    metadatas: { id: ID },
    layouts: { list: ['id'], edit: [] },
    uid: 'api::gone.gone',
  },
};
