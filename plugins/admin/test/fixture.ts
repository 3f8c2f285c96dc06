/** The test app of the admin tests: a Strapi app's package.json (it depends on `@strapi/admin`, which turns the admin on) and one API. */
export const ADMIN_APP_FILES = {
  'package.json': { name: 'admin-test-app', version: '0.1.0', dependencies: { '@strapi/admin': '4.26.2' } },
  'src/api/note/content-types/note/schema.json': {
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    attributes: { title: { type: 'string' } },
  },
};
