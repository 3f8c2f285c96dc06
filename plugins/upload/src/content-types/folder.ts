/**
 * `plugin::upload.folder` in Strapi v4's `upload_folders` table (parent links
 * in `upload_folders_parent_links`), as Strapi's media library makes them:
 * the admin's folder service (admin/folders.ts) keeps `pathId` and the
 * materialised `path`; a Strapi-made database reads back whole.
 */
export const folderSchema = {
  kind: 'collectionType',
  collectionName: 'upload_folders',
  info: { singularName: 'folder', pluralName: 'folders', displayName: 'Folder' },
  options: {},
  pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
  attributes: {
    name: { type: 'string', required: true },
    pathId: { type: 'integer', required: true, unique: true },
    parent: { type: 'relation', relation: 'manyToOne', target: 'plugin::upload.folder', inversedBy: 'children' },
    children: { type: 'relation', relation: 'oneToMany', target: 'plugin::upload.folder', mappedBy: 'parent' },
    files: { type: 'relation', relation: 'oneToMany', target: 'plugin::upload.file', mappedBy: 'folder' },
    path: { type: 'string', required: true },
  },
};
