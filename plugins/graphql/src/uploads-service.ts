/**
 * `strapi.plugin('graphql').service('uploads')`: what a plugin that stores
 * files (upload) needs from this one, without importing its code:
 *   - the bound on files sent to the endpoint in multipart requests: the
 *     storing plugin says how large one may be, this plugin knows where its
 *     endpoint is. The kernel's body parser reads the bound, so it is set
 *     during `register` (before the parser is built);
 *   - whether a resolver's argument is a file of the request (`Upload`).
 */
import type { App } from '@tessera/core';
import { readConfig } from './config';
import { GraphqlUpload } from './upload';

export interface GraphqlUploads {
  /** Files larger than `bytes` in a multipart request to the endpoint are refused while streaming (413). */
  limitFileSize(bytes: number): void;
  /** True for the `Upload` values the endpoint made from the request's files (never for a JSON variable). */
  isUpload(value: unknown): value is GraphqlUpload;
}

export function uploadsService(app: App): GraphqlUploads {
  return {
    limitFileSize(bytes) {
      const { endpoint } = readConfig(app);
      const limits = app.config.get<Record<string, number>>('server.body.multipartFileLimits', {});
      app.config.set('server.body.multipartFileLimits', { ...limits, [endpoint]: bytes });
    },
    isUpload: (value): value is GraphqlUpload => value instanceof GraphqlUpload,
  };
}
