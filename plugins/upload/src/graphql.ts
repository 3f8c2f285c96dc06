/**
 * The upload plugin in the GraphQL plugin's schema, when that plugin is on
 * (reached through `strapi.plugin('graphql')!.service('extension')`, never by
 * importing its code):
 *
 * - Shadow CRUD must not generate create, update or delete for upload's
 *   types. Files are created, changed and removed by the upload service only:
 *   a generated create or update would let a client write `url`, `provider`
 *   or `hash` (a file row pointing anywhere), and a generated delete would
 *   drop the row and leave the stored bytes served. Folders have no
 *   content-API routes either. Queries stay, as in Strapi v4.
 * - Strapi v4's upload mutations (graphql-mutations.ts), over the same
 *   service and permission actions as `/api/upload`.
 * - `UploadFile.related`, the polymorphic list of what a file is linked to
 *   (graphql-related.ts).
 * - Multipart GraphQL requests are read by the kernel's body parser: their
 *   files are bounded by `sizeLimit` there, while streaming, as the upload
 *   route's are (the plugin declares the size to the kernel, `app.bodyParsing`,
 *   and graphql declares its endpoint: index.ts's `register`).
 */
import type { App } from '@tessera/core';
import { FILE_UID, FOLDER_UID } from './contract';
import { uploadMutations } from './graphql-mutations';
import { relatedField } from './graphql-related';

/** From `bootstrap`: before the GraphQL schema is built (after the app's bootstrap). */
export function extendGraphql(app: App): void {
  const graphql = app.plugin('graphql');
  if (!graphql) return;
  const extension = graphql.service('extension');
  for (const uid of [FILE_UID, FOLDER_UID]) extension.shadowCRUD(uid).disableActions(['create', 'update', 'delete']);
  const service = () => app.plugin('upload')!.service('upload');
  // The mutations answer UploadFileEntityResponse: without shadow CRUD for files there is no such type to answer with.
  extension.use(({ typeRegistry }) => (typeRegistry.has('UploadFileEntityResponse') ? uploadMutations(app, service, graphql.service('uploads')) : {}));
  // GenericMorph is generated with the shadow CRUD types; without them there is no union to answer with.
  extension.use(({ typeRegistry }) => (typeRegistry.has('UploadFile') && typeRegistry.has('GenericMorph') ? relatedField(app) : {}));
}
