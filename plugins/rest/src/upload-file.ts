/**
 * The minimal `plugin::upload.file` content type: Strapi v4's `files` table,
 * so media attributes read (and can be set by file id) before the upload
 * plugin exists. Registered only when no plugin has registered it already.
 */
import type { ContentType } from '@tessera/core';

export const UPLOAD_FILE_UID = 'plugin::upload.file';

export const uploadFileContentType: ContentType = {
  uid: UPLOAD_FILE_UID,
  namespace: 'upload',
  kind: 'collectionType',
  collectionName: 'files',
  info: { singularName: 'file', pluralName: 'files', displayName: 'File' },
  options: {},
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
