/**
 * Where media live in Strapi v4's layout: file entries are the upload
 * plugin's `plugin::upload.file` content type, linked to their owners through
 * the polymorphic `files_related_morphs` table (file_id, related_id,
 * related_type, field, order).
 */
export const FILE_UID = 'plugin::upload.file';

export const MORPH_TABLE = 'files_related_morphs';
