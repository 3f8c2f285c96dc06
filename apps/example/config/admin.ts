// API tokens are stored as HMACs keyed by this salt. Outside production a fixed development salt stands in;
// in production there is none: a key published with the source protects nothing, so the boot stops instead.
export default ({ env }) => ({
  apiToken: { salt: env('API_TOKEN_SALT') || developmentSalt(env('NODE_ENV')) }, // an empty value is no salt
});

function developmentSalt(mode: string | undefined): string {
  if (mode === 'production') throw new Error('API_TOKEN_SALT must be set when NODE_ENV=production (a long random secret)');
  return 'tessera-example-development-salt';
}
