/** The upload plugin's content types, by uid: one module that imports nothing of the plugin's, so any of its modules may use them. */
export { FILE_UID } from '@tessera/database';
export const FOLDER_UID = 'plugin::upload.folder';
