/**
 * The media file content type, `plugin::upload.file`, in Strapi v4's `files`
 * table. Media attributes read and link these rows, so the kernel registers
 * this minimal type whenever no plugin (the upload plugin) brings its own.
 */
import type { ContentType } from './types';
import { FILE_UID } from '../metadata/media';

export const FILE_CONTENT_TYPE: ContentType = {
  uid: FILE_UID,
  namespace: 'upload',
  kind: 'collectionType',
  collectionName: 'files',
  info: { singularName: 'file', pluralName: 'files', displayName: 'File' },
  options: {},
  // As Strapi's file type: the content manager and the builder never show it (an admin role's explorer actions
  // are not given on it).
  pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
  attributes: {
    name: { type: 'string', required: true },
    alternativeText: { type: 'string' },
    caption: { type: 'string' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    formats: { type: 'json' },
    hash: { type: 'string', required: true },
    ext: { type: 'string' },
    mime: { type: 'string', required: true },
    size: { type: 'decimal', required: true },
    url: { type: 'string', required: true },
    previewUrl: { type: 'string' },
    provider: { type: 'string', required: true },
    provider_metadata: { type: 'json' },
    folderPath: { type: 'string', private: true },
  },
};
