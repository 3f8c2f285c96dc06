// API tokens are stored as HMACs keyed by this salt. Set API_TOKEN_SALT in production.
export default ({ env }) => ({
  apiToken: { salt: env('API_TOKEN_SALT', 'tessera-example-development-salt') },
});
