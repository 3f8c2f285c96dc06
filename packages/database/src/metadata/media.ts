/**
 * Where media live in Strapi v4's layout: file entries are the upload
 * plugin's `plugin::upload.file` content type, linked to their owners through
 * the polymorphic `files_related_morphs` table (file_id, related_id,
 * related_type, field, order).
 */
export const FILE_UID = 'plugin::upload.file';

export const MORPH_TABLE = 'files_related_morphs';

/**
 * The content type a link attribute points to: a relation's target, or the
 * media file type for a media attribute. Adapters (GraphQL) ask this instead
 * of naming the upload plugin's type.
 */
export function linkTarget(attribute: { type: string; target?: string }): string | undefined {
  if (attribute.type === 'media') return FILE_UID;
  return attribute.type === 'relation' ? attribute.target : undefined;
}
