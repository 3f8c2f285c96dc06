/**
 * `strapi.plugin('graphql').service('uploads')`: the bound on files sent to
 * the GraphQL endpoint in multipart requests. The plugin that stores files
 * (upload) says how large one may be; this plugin knows where its endpoint is.
 * The kernel's body parser reads the bound, so it must be set during
 * `register` (before the parser is built).
 */
import type { App } from '@tessera/core';
import { readConfig } from './config';

export interface GraphqlUploadLimits {
  /** Files larger than `bytes` in a multipart request to the endpoint are refused while streaming (413). */
  limitFileSize(bytes: number): void;
}

export function uploadLimits(app: App): GraphqlUploadLimits {
  return {
    limitFileSize(bytes) {
      const { endpoint } = readConfig(app);
      const limits = app.config.get<Record<string, number>>('server.body.multipartFileLimits', {});
      app.config.set('server.body.multipartFileLimits', { ...limits, [endpoint]: bytes });
    },
  };
}
