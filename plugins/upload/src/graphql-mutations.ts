/**
 * Strapi v4's upload mutations: `upload`, `multipleUpload`, `updateFileInfo`,
 * `removeFile` and `FileInfoInput`, with the reference schema's shapes. Each
 * is the REST route's work through the same service: the same permission
 * actions (`plugin::upload.content-api.upload`, `.destroy`), sniffing,
 * allowed/denied types, size limit, fileInfo rules and ref/refId/field
 * linking (checked before a byte is stored). Files arrive as the graphql
 * plugin's `Upload` values: files of the multipart request, in its temp
 * folder, which the kernel removes when the request ends.
 */
import { ValidationError } from '@tessera/errors';
import { Caller, type App } from '@tessera/core';
import type { ExtensionConfig, GraphqlResolver, GraphqlUploads } from '@tessera/plugin-graphql';
import { checkFileInfo } from './file-info';
import { linkTarget } from './link';
import type { IncomingFile } from './multipart';
import { fileId, type FileObject, type UploadService } from './services/upload';

const TYPE_DEFS = /* GraphQL */ `
  input FileInfoInput {
    alternativeText: String
    caption: String
    name: String
  }

  extend type Mutation {
    upload(field: String, file: Upload!, info: FileInfoInput, ref: String, refId: ID): UploadFileEntityResponse!
    multipleUpload(field: String, files: [Upload]!, ref: String, refId: ID): [UploadFileEntityResponse]!
    updateFileInfo(id: ID!, info: FileInfoInput): UploadFileEntityResponse!
    removeFile(id: ID!): UploadFileEntityResponse
  }
`;

const UPLOAD_ACTION = 'plugin::upload.content-api.upload';
const DESTROY_ACTION = 'plugin::upload.content-api.destroy';

type Args = Record<string, unknown>;

export function uploadMutations(app: App, service: () => UploadService, uploads: GraphqlUploads): ExtensionConfig {
  const entity = (file: FileObject) => ({ data: file });
  const incomingFile = (value: unknown, path: string[]) => incomingFileOf(uploads, value, path);
  const mutations: Record<string, GraphqlResolver> = {
    async upload(_parent, args, context) {
      const file = incomingFile(args.file, ['file']);
      const info = checkFileInfo(args.info ?? {});
      const link = await linkTarget(app, linkFields(args), Caller.of(context.state.auth));
      const [uploaded] = await service().upload([file], [info], link);
      return entity(uploaded);
    },
    async multipleUpload(_parent, args, context) {
      const files = (args.files as unknown[]).map((value, index) => incomingFile(value, ['files', String(index)]));
      if (files.length === 0) throw new ValidationError('Files are empty');
      const link = await linkTarget(app, linkFields(args), Caller.of(context.state.auth));
      return (await service().upload(files, [], link)).map(entity);
    },
    async updateFileInfo(_parent, args) {
      return entity(await service().updateInfo(fileId(args.id), checkFileInfo(args.info ?? {})));
    },
    async removeFile(_parent, args) {
      return entity(await service().remove(fileId(args.id)));
    },
  };
  const scope = (action: string) => ({ auth: { scope: [action] } });
  return {
    typeDefs: TYPE_DEFS,
    resolvers: { Mutation: mutations },
    resolversConfig: {
      'Mutation.upload': scope(UPLOAD_ACTION),
      'Mutation.multipleUpload': scope(UPLOAD_ACTION),
      // REST changes a file's info through POST /api/upload?id=, under the upload action.
      'Mutation.updateFileInfo': scope(UPLOAD_ACTION),
      'Mutation.removeFile': scope(DESTROY_ACTION),
    },
  };
}

/** An `Upload` value as the service's incoming file; anything else (a null list item) is the client's mistake. */
function incomingFileOf(uploads: GraphqlUploads, value: unknown, path: string[]): IncomingFile {
  if (!uploads.isUpload(value)) throw ValidationError.forField(path, `${path.join('.')} must be a file of the multipart request`);
  return { filepath: value.filepath, originalFilename: value.filename !== '' ? value.filename : null, size: value.size };
}

/** `ref`, `refId`, `field` as the REST form gives them (strings), for the same checks. */
function linkFields(args: Args): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const key of ['ref', 'refId', 'field']) if (args[key] !== undefined && args[key] !== null) fields[key] = String(args[key]);
  return fields;
}
