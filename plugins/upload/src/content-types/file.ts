/**
 * `plugin::upload.file` in Strapi v4's `files` table, with Strapi's columns
 * (a Strapi-made database is served unchanged). `folder` links through
 * `files_folder_links`; `folderPath` is Strapi's materialised folder path.
 * Strapi's polymorphic `related` is not declared: media links live in
 * `files_related_morphs`, written by the database package's media writer and
 * listed by `related.ts`.
 */
import { FILE_CONTENT_TYPE } from '@tessera/database';

const { folderPath, ...columns } = FILE_CONTENT_TYPE.attributes;

/** The kernel's fallback file type (the same columns, one definition) plus the folder link, in Strapi's attribute order. */
export const fileSchema = {
  kind: 'collectionType',
  collectionName: 'files',
  info: { singularName: 'file', pluralName: 'files', displayName: 'File', description: '' },
  options: {},
  pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
  attributes: {
    ...columns,
    folder: { type: 'relation', relation: 'manyToOne', target: 'plugin::upload.folder', inversedBy: 'files', private: true },
    folderPath,
  },
};

/** The keys of a file object in a response, in Strapi's order. */
export const FILE_KEYS = [
  'id',
  'name',
  'alternativeText',
  'caption',
  'width',
  'height',
  'formats',
  'hash',
  'ext',
  'mime',
  'size',
  'url',
  'previewUrl',
  'provider',
  'provider_metadata',
  'createdAt',
  'updatedAt',
] as const;
