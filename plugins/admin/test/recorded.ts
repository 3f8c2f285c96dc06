/**
 * Strapi 4.26.2's admin answers, recorded on shared/strapi4-peer (SQLite,
 * `SERVE_ADMIN_PANEL=true`, admin secret `peerAdminJwtSecret`) with curl,
 * before Tessera's were written. Bodies are verbatim; ids and timestamps are
 * what that database had.
 */
export const STRAPI_VERSION = '4.26.2';

/** The admin the fixture database (fixtures/strapi-4.26.2-admin.sql) holds, registered on the peer. */
export const PEER_ADMIN = { email: 'peer.admin@example.com', password: 'Peer12345' };
export const PEER_SECRET = 'peerAdminJwtSecret';
/** Issued by the peer's POST /admin/register-admin for user 1 (iat 1795928402, exp 1798520402: 30 days). */
export const PEER_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6MSwiaWF0IjoxNzk1OTI4NDAyLCJleHAiOjE3OTg1MjA0MDJ9.N75GovTTJyV-kFamVWctMJokMlR7zjbdjwEeFkr2QZc';
export const PEER_TOKEN_EXPIRES = 1798520402;

export const PEER_ME = {
  id: 1,
  firstname: 'Renamed',
  lastname: 'Admin',
  username: null,
  email: 'peer.admin@example.com',
  isActive: true,
  blocked: false,
  preferedLanguage: 'fr',
  createdAt: '2026-11-29T05:00:02.820Z',
  updatedAt: '2026-11-29T05:00:03.808Z',
  roles: [{ id: 1, name: 'Super Admin', description: 'Super Admins can access and manage all features and settings.', code: 'strapi-super-admin' }],
};

/** GET /admin/users/me/permissions on the peer: its first entries (the fixture keeps these six of the Super Admin's 87). */
export const PEER_PERMISSIONS = [
  { id: 71, action: 'plugin::content-manager.explorer.create', actionParameters: {}, subject: 'plugin::users-permissions.user', properties: { fields: ['username', 'email', 'provider', 'password', 'resetPasswordToken', 'confirmationToken', 'confirmed', 'blocked', 'role'] }, conditions: [] },
  { id: 72, action: 'plugin::content-manager.explorer.create', actionParameters: {}, subject: 'api::article.article', properties: { fields: ['title', 'slug', 'body', 'summary', 'featured', 'views', 'rating', 'publishDate', 'status', 'meta', 'category', 'tags', 'author', 'seo.metaTitle', 'seo.metaDescription', 'cover'] }, conditions: [] },
  { id: 73, action: 'plugin::content-manager.explorer.create', actionParameters: {}, subject: 'api::category.category', properties: { fields: ['name', 'articles'] }, conditions: [] },
  { id: 74, action: 'plugin::content-manager.explorer.create', actionParameters: {}, subject: 'api::homepage.homepage', properties: { fields: ['title', 'hero', 'featuredArticles'] }, conditions: [] },
  { id: 75, action: 'plugin::content-manager.explorer.create', actionParameters: {}, subject: 'api::note.note', properties: { fields: ['title', 'secret', 'score'] }, conditions: [] },
  { id: 76, action: 'plugin::content-manager.explorer.create', actionParameters: {}, subject: 'api::page.page', properties: { fields: ['title', 'slug', 'body', 'order', 'category'], locales: ['en', 'fr', 'de'] }, conditions: [] },
];

const unauthorized = { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } };
const issue = (path: string[], message: string) => ({ path, message, name: 'ValidationError' });
const validation = (message: string, errors: Array<ReturnType<typeof issue>>) => ({ data: null, error: { status: 400, name: 'ValidationError', message, details: { errors } } });
const application = (message: string) => ({ data: null, error: { status: 400, name: 'ApplicationError', message, details: {} } });

/** [method, path, body, status, answer]: requests whose answer does not depend on the database's contents. */
export const RECORDED: Array<{ title: string; method: string; path: string; body?: unknown; rawBody?: string; auth?: 'admin' | 'none'; status: number; answer: unknown }> = [
  { title: 'project type', method: 'GET', path: '/admin/project-type', status: 200, answer: { data: { isEE: false, features: [], flags: { nps: false, promoteEE: false } } } },
  { title: 'information without a token', method: 'GET', path: '/admin/information', status: 401, answer: unauthorized },
  { title: 'project settings without a token', method: 'GET', path: '/admin/project-settings', status: 401, answer: unauthorized },
  { title: 'me without a token', method: 'GET', path: '/admin/users/me', status: 401, answer: unauthorized },
  { title: 'logout without a token', method: 'POST', path: '/admin/logout', status: 401, answer: unauthorized },
  {
    title: 'register-admin, empty body',
    method: 'POST',
    path: '/admin/register-admin',
    body: {},
    status: 400,
    answer: validation('3 errors occurred', [issue(['email'], 'email is a required field'), issue(['firstname'], 'firstname is a required field'), issue(['password'], 'password is a required field')]),
  },
  {
    title: 'register-admin, bad email and weak password',
    method: 'POST',
    path: '/admin/register-admin',
    body: { email: 'bad', password: 'x', firstname: 'A' },
    status: 400,
    answer: validation('4 errors occurred', [
      issue(['email'], 'email must be a valid email'),
      issue(['password'], 'password must be at least 8 characters'),
      issue(['password'], 'password must contain at least one uppercase character'),
      issue(['password'], 'password must contain at least one number'),
    ]),
  },
  {
    title: 'register-admin, an unknown key',
    method: 'POST',
    path: '/admin/register-admin',
    body: { email: 'first.admin@example.com', password: 'Secret123', firstname: 'First', lastname: 'Admin', extra: 1 },
    status: 400,
    answer: validation('this field has unspecified keys: extra', [issue([], 'this field has unspecified keys: extra')]),
  },
  {
    title: 'register-admin, an email with capitals',
    method: 'POST',
    path: '/admin/register-admin',
    body: { email: 'First.Admin@example.com', password: 'Secret1234', firstname: 'First', lastname: 'Admin' },
    status: 400,
    answer: validation('email must be a lowercase string', [issue(['email'], 'email must be a lowercase string')]),
  },
  { title: 'login without a password', method: 'POST', path: '/admin/login', body: { email: 'first.admin@example.com' }, status: 400, answer: application('Missing credentials') },
  { title: 'login with an object for email', method: 'POST', path: '/admin/login', body: { email: { a: 1 }, password: 'Wrong1234' }, status: 400, answer: application('Missing credentials') },
  { title: 'renew-token, garbage', method: 'POST', path: '/admin/renew-token', body: { token: 'garbage' }, status: 400, answer: { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid token', details: {} } } },
  { title: 'renew-token, no token', method: 'POST', path: '/admin/renew-token', body: {}, status: 400, answer: validation('token is a required field', [issue(['token'], 'token is a required field')]) },
];

/** With a signed-in admin (the profile answers' shapes; `me` stands for the admin's sanitized user). */
export const RECORDED_PROFILE = {
  passwordWithoutCurrent: validation('currentPassword is a required field', [issue(['currentPassword'], 'currentPassword is a required field')]),
  wrongCurrentPassword: { data: null, error: { status: 400, name: 'BadRequestError', message: 'ValidationError', details: { currentPassword: ['Invalid credentials'] } } },
  unknownKey: validation('this field has unspecified keys: extra', [issue([], 'this field has unspecified keys: extra')]),
  nullFirstname: validation('firstname must be a `string` type, but the final value was: `null`.', [issue(['firstname'], 'firstname must be a `string` type, but the final value was: `null`.')]),
  arrayBody: validation('this must be a `object` type, but the final value was: `[\n  "1"\n]`.', [issue([], 'this must be a `object` type, but the final value was: `[\n  "1"\n]`.')]),
  renewUnknownKey: validation('this field has unspecified keys: x', [issue([], 'this field has unspecified keys: x')]),
  secondRegistration: application('You cannot register a new super admin'),
  wrongPassword: application('Invalid credentials'),
  rateLimited: { data: null, error: { status: 429, name: 'RateLimitError', message: 'Too many requests, please try again later.', details: {} } },
  logout: { data: {} },
};
