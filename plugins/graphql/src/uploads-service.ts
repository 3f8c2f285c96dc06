/**
 * `strapi.plugin('graphql').service('uploads')`: what a plugin that stores
 * files (upload) needs from this one, without importing its code: whether a
 * resolver's argument is a file of the request (`Upload`). (How large such a
 * file may be is declared to the kernel, `app.bodyParsing`, by each side.)
 */
import { GraphqlUpload } from './upload';

export interface GraphqlUploads {
  /** True for the `Upload` values the endpoint made from the request's files (never for a JSON variable). */
  isUpload(value: unknown): value is GraphqlUpload;
}

export function uploadsService(): GraphqlUploads {
  return {
    isUpload: (value): value is GraphqlUpload => value instanceof GraphqlUpload,
  };
}
