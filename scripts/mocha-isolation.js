/**
 * Root hooks (mocha `--require`): each test file ends by putting back the
 * environment its worker process started with. In parallel mode one worker
 * runs file after file, and an app reads its `.env` into process.env as
 * Strapi does (dotenv, no override): a Strapi app's JWT_SECRET would stay and
 * outrank the next file's configured secret.
 */
const started = { ...process.env };

exports.mochaHooks = {
  afterAll() {
    for (const key of Object.keys(process.env)) if (!(key in started)) delete process.env[key];
    Object.assign(process.env, started);
  },
};
