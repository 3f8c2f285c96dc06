// API tokens are stored as HMACs keyed by this salt (generated into .env by `tessera new`).
export default ({ env }) => ({
  apiToken: { salt: env('API_TOKEN_SALT') },
});
