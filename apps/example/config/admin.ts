// API tokens are stored as HMACs keyed by this salt. Outside production a fixed development salt stands in;
// in production there is none: a key published with the source protects nothing, so the boot stops instead.
// The admin panel's sessions are JWTs signed with ADMIN_JWT_SECRET (Strapi's auth.secret); in development one is
// generated into .env when missing, in production the boot stops without it.
export default ({ env }) => ({
  apiToken: { salt: env('API_TOKEN_SALT') || developmentSalt(env('NODE_ENV')) }, // an empty value is no salt
  auth: { secret: env('ADMIN_JWT_SECRET') },
});

function developmentSalt(mode: string | undefined): string {
  if (mode === 'production') throw new Error('API_TOKEN_SALT must be set when NODE_ENV=production (a long random secret)');
  return 'tessera-example-development-salt';
}
