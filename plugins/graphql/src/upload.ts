/**
 * A file of a multipart GraphQL request, as the `Upload` scalar hands it to
 * a resolver. Only the endpoint makes these, from the files the kernel's
 * body parser wrote to the request's temp folder: a JSON variable can never
 * be one, so a client cannot pass `{ "filepath": "/etc/passwd" }` as a file.
 * The temp file is removed when the request ends; a resolver that keeps the
 * bytes copies them (the upload plugin's service does).
 *
 * Besides our fields it has graphql-upload's (`filename`, `mimetype`,
 * `encoding`, `createReadStream()`), so a Strapi v4 resolver doing
 * `const { createReadStream, filename } = await file` runs unchanged.
 */
import fs from 'node:fs';

/** Marks the values the endpoint made, for plugins that check without importing this module. */
export const UPLOAD_BRAND = Symbol.for('tessera.graphql.upload');

export interface UploadSource {
  filepath: string;
  originalFilename: string | null;
  mimetype: string | null;
  size: number;
}

export class GraphqlUpload {
  readonly [UPLOAD_BRAND] = true;
  /** Where the bytes are while the request lasts. */
  readonly filepath: string;
  /** The client's file name: display text, never a path to trust. */
  readonly filename: string;
  /** The client's claimed type: never trusted for what the bytes are. */
  readonly mimetype: string;
  readonly encoding = '7bit';
  /** Bytes on disk. */
  readonly size: number;

  constructor(source: UploadSource) {
    this.filepath = source.filepath;
    this.filename = source.originalFilename ?? '';
    this.mimetype = source.mimetype ?? 'application/octet-stream';
    this.size = source.size;
  }

  createReadStream(): fs.ReadStream {
    return fs.createReadStream(this.filepath);
  }
}
