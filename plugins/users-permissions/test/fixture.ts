/**
 * A small app for the users-permissions suites: `api::post.post` (public
 * find/findOne, an `author` relation to users), `api::note.note` (nothing
 * public), the plugin enabled with a rate limit high enough for the suites
 * (the rate-limit suite sets its own). Every response body any suite sees is
 * recorded for the private-field walk (z-private-fields-walk.test.ts).
 */
import { startApp, type DatabaseHandle, type TestApp, type TestDialect, type TestResponse } from '@tessera/testing';
// The plugin's service types (app.plugin('users-permissions')!.service('user') is typed through them).
import type {} from '@tessera/plugin-users-permissions';

export const POST_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'posts',
  info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
  options: { draftAndPublish: false },
  attributes: {
    title: { type: 'string' },
    author: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' },
  },
};

export const NOTE_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: { text: { type: 'string' } },
};

export const PUBLIC_ACTIONS = ['api::post.post.find', 'api::post.post.findOne'];

/** Strapi v4's default permissions of the public role (its DEFAULT_PERMISSIONS), created with the roles. */
export const DEFAULT_PUBLIC_ACTIONS = ['callback', 'connect', 'emailConfirmation', 'forgotPassword', 'register', 'resetPassword', 'sendEmailConfirmation'].map(
  (action) => `plugin::users-permissions.auth.${action}`,
);

export const TEST_PLUGIN_CONFIG = { ratelimit: { enabled: true, interval: 60_000, max: 10_000 } };

export interface UpAppOptions {
  config?: Record<string, unknown>;
  files?: Record<string, string | object>;
  permissions?: Record<string, string[]>;
  database?: DatabaseHandle;
  sqliteFile?: string;
  serverConfig?: Record<string, unknown>;
  /** Turn the GraphQL plugin on too. */
  graphql?: boolean;
}

export function upFiles(options: UpAppOptions = {}): Record<string, string | object> {
  const pluginConfig = { ...TEST_PLUGIN_CONFIG, ...(options.config ?? {}) };
  return {
    'src/api/post/content-types/post/schema.json': POST_SCHEMA,
    'src/api/note/content-types/note/schema.json': NOTE_SCHEMA,
    'config/permissions.ts': `export default ${JSON.stringify(options.permissions ?? { public: PUBLIC_ACTIONS })};\n`,
    'config/plugins.ts': `export default ${JSON.stringify({ 'users-permissions': { enabled: true, config: pluginConfig }, ...(options.graphql ? { graphql: { enabled: true } } : {}) })};\n`,
    ...(options.files ?? {}),
  };
}

export async function startUpApp(dialect: TestDialect, options: UpAppOptions = {}): Promise<TestApp> {
  const app = await startApp({
    dialect,
    files: upFiles(options),
    database: options.database,
    sqliteFile: options.sqliteFile,
    config: options.serverConfig ? { server: options.serverConfig } : undefined,
  });
  return recording(app);
}

/** Every body a recording app answered (the GraphQL suite reads its own back). */
export const recordedBodies: Array<{ request: string; text: string }> = [];

const PRIVATE_KEYS = new Set(['password', 'resetPasswordToken', 'confirmationToken']);

/** Where a response body shows a private user field as a key, at any depth, or holds a bcrypt hash. */
export function privateFieldsIn(text: string, request: string): string[] {
  const found: string[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${path}[${index}]`));
    else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        if (PRIVATE_KEYS.has(key)) found.push(`${path}.${key}`);
        walk(child, `${path}.${key}`);
      }
    }
  };
  try {
    walk(JSON.parse(text), request);
  } catch {
    // Not JSON (a file, an HTML page): only the hash check applies.
  }
  if (/\$2[aby]\$\d\d\$/.test(text)) found.push(`${request}: a bcrypt hash`);
  return found;
}

/**
 * Every body the app answers is walked for private user fields as it arrives (register, login, me, /users,
 * populated authors, roles, errors — all the suites' traffic), and a request whose answer holds one fails there.
 */
export function recording(app: TestApp): TestApp {
  const send = app.request.bind(app);
  app.request = async <T = any>(method: string, pathAndQuery: string, options?: Parameters<TestApp['request']>[2]): Promise<TestResponse<T>> => {
    const response = await send<T>(method, pathAndQuery, options);
    const request = `${method} ${pathAndQuery}`;
    recordedBodies.push({ request, text: response.text });
    const found = privateFieldsIn(response.text, request);
    if (found.length > 0) throw new Error(`private user fields in an answer: ${found.join(', ')}`);
    return response;
  };
  return app;
}

export function errorBody(status: number, name: string, message: string, details: object = {}) {
  return { data: null, error: { status, name, message, details } };
}

export const FORBIDDEN = errorBody(403, 'ForbiddenError', 'Forbidden');
export const UNAUTHORIZED = errorBody(401, 'UnauthorizedError', 'Missing or invalid credentials');
export const USER_KEYS = ['id', 'username', 'email', 'provider', 'confirmed', 'blocked', 'createdAt', 'updatedAt'];
export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export async function register(app: TestApp, username: string, password = 'Passw0rd!'): Promise<{ jwt: string; id: number }> {
  const response = await app.post('/api/auth/local/register', { username, email: `${username}@example.com`, password });
  if (response.status !== 200) throw new Error(`register ${username}: ${response.status} ${response.text}`);
  return { jwt: response.body.jwt, id: response.body.user.id };
}
