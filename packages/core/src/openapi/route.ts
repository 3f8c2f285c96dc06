/**
 * `GET /api/openapi.json`: the app's OpenAPI document, served in development
 * and, when `api.openapi.enabled` is true, in production. Built on the first
 * request (every route is mounted by then) and kept: routes and schemas do
 * not change while the process runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { App } from '../app-type';
import { getConfig } from '../config/load-config';
import type { RouterDefinition } from '../types';
import { openApiDocument, type OpenApiInfo } from './document';
import type { JsonSchema } from './schemas';

export const OPENAPI_PATH = '/api/openapi.json';

export function openApiEnabled(app: App): boolean {
  return Boolean(getConfig(app.config, 'api.openapi.enabled', process.env.NODE_ENV === 'development'));
}

export function openApiRouter(app: App): RouterDefinition {
  let document: JsonSchema | undefined;
  return {
    type: 'raw',
    routes: [
      {
        method: 'GET',
        path: OPENAPI_PATH,
        config: { auth: false },
        handler: async (ctx) => {
          document ??= await buildOpenApi(app);
          ctx.body = document;
        },
      },
    ],
  };
}

/** The document as the public role sees who may call what (`tessera openapi` writes the same). */
export async function buildOpenApi(app: App): Promise<JsonSchema> {
  return openApiDocument(app, await app.permissions.publicAbility(), appInfo(app.dir));
}

function appInfo(dir: string): OpenApiInfo {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
    return { title: pkg.name ?? path.basename(dir), version: pkg.version ?? '0.0.0' };
  } catch {
    return { title: path.basename(dir), version: '0.0.0' };
  }
}
