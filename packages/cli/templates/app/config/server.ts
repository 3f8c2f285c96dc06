export default ({ env }) => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  app: { keys: env.array('APP_KEYS') },
  body: { jsonLimit: env('BODY_JSON_LIMIT', '1mb') },
});
