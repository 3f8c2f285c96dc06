/**
 * `app.bodyParsing`: what plugins declare about request bodies on their own
 * paths, which the global body parser (`strapi::body`, middlewares/body.ts)
 * reads per request. Each plugin says only what it knows, to the kernel:
 *
 *   claimMultipart(prefix)   the routes under `prefix` parse their own multipart
 *                            bodies (the upload routes stream them to disk under
 *                            their own limit): the global parser leaves them alone
 *   acceptUploads(prefix)    multipart files sent under `prefix` are uploads,
 *                            meant to be stored (the GraphQL endpoint's `Upload`
 *                            values): bounded by the upload size below
 *   limitUploadSize(bytes)   the largest upload the app stores (the upload
 *                            plugin's `sizeLimit`)
 *
 * So the plugin that knows where files arrive (graphql) and the one that
 * knows how large a stored file may be (upload) never name each other, and
 * no plugin writes a config key another part reads. The app's own limits
 * (`server.body.jsonLimit`, the middleware's `formidable.maxFileSize`) stay
 * config, as documented.
 */
import { ConfigurationError } from '@tessera/errors';

export class BodyParsing {
  private readonly claimed: string[] = [];
  private readonly uploadPaths: string[] = [];
  private uploadSize: number | undefined;

  /** Multipart bodies under `prefix` are parsed by their route: the global parser leaves them alone. */
  claimMultipart(prefix: string): void {
    if (!this.claimed.includes(prefix)) this.claimed.push(prefix);
  }

  /** Multipart files under `prefix` are uploads: refused while streaming past the upload size, when one is declared. */
  acceptUploads(prefix: string): void {
    if (!this.uploadPaths.includes(prefix)) this.uploadPaths.push(prefix);
  }

  /** The largest upload the app stores, in bytes (the lowest declared wins). */
  limitUploadSize(bytes: number): void {
    if (!Number.isSafeInteger(bytes) || bytes <= 0) throw new ConfigurationError(`an upload size limit must be a positive number of bytes, got ${String(bytes)}`);
    this.uploadSize = Math.min(this.uploadSize ?? bytes, bytes);
  }

  /** Whether a route under a claimed prefix parses this path's multipart body itself. */
  isClaimed(requestPath: string): boolean {
    return this.claimed.some((prefix) => requestPath.startsWith(prefix));
  }

  /** The bound on this path's multipart files below the parser's own, if any: the upload size on paths that accept uploads. */
  fileSizeLimit(requestPath: string): number | undefined {
    if (this.uploadSize === undefined) return undefined;
    return this.uploadPaths.some((prefix) => isUnder(requestPath, prefix)) ? this.uploadSize : undefined;
  }
}

/** `prefix` itself or a path below it (`/graphql`, `/graphql/x`; not `/graphqlx`). */
function isUnder(requestPath: string, prefix: string): boolean {
  return requestPath === prefix || requestPath.startsWith(`${prefix.replace(/\/$/, '')}/`);
}
