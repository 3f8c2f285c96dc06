/**
 * What the upload plugin offers other plugins and apps: the uids of its
 * content types and its services' types, in the kernel's typed service map
 * (`app.plugin('upload')!.service('upload')`).
 *
 * The file type's uid is the database's media target (media attributes link
 * to it in Strapi v4's layout), so it is the database package's constant.
 */
import type { ImageManipulation } from './services/image-manipulation';
import type { UploadService } from './services/upload';
import type { FolderService } from './admin/folders';

export { FILE_UID } from '@tessera/database';
export const FOLDER_UID = 'plugin::upload.folder';

export interface UploadServices {
  upload: UploadService;
  /** Strapi's `plugin::upload.image-manipulation`: the functions the upload runs its image work through. */
  'image-manipulation': ImageManipulation;
  /** Strapi's `plugin::upload.folder` service: the media library's folders (admin/folders.ts). */
  folder: FolderService;
}

declare module '@tessera/core' {
  interface PluginServices {
    upload: UploadServices;
  }
}
