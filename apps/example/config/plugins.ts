// Plugins beside the always-on REST API. users-permissions: users, roles and JWT login (README "Users, roles and JWT").
export default ({ env }) => ({
  'users-permissions': {
    enabled: true,
    config: {
      // JWT_SECRET is read from the environment; in development one is generated into .env when missing.
      jwt: { expiresIn: env('JWT_EXPIRES_IN', '30d') },
      ratelimit: { enabled: env.bool('AUTH_RATE_LIMIT', true), interval: 60_000, max: env.int('AUTH_RATE_LIMIT_MAX', 10) },
      email: env('SMTP_HOST')
        ? {
            provider: 'smtp',
            providerOptions: {
              host: env('SMTP_HOST'),
              port: env.int('SMTP_PORT', 587),
              secure: env.bool('SMTP_SECURE', false),
              auth: env('SMTP_USERNAME') ? { user: env('SMTP_USERNAME'), pass: env('SMTP_PASSWORD') } : undefined,
            },
            from: env('EMAIL_FROM', 'no-reply@example.com'),
          }
        : { provider: 'log', from: env('EMAIL_FROM', 'no-reply@example.com') },
      advanced: { resetPasswordUrl: env('RESET_PASSWORD_URL', 'http://localhost:3000/reset-password') },
    },
  },
  // Uploads: local provider (public/uploads, served at /uploads/<hash><ext>).
  upload: {
    enabled: true,
    config: { sizeLimit: env.int('UPLOAD_SIZE_LIMIT', 200 * 1024 * 1024) },
  },
  graphql: {
    enabled: true,
    config: {
      endpoint: '/graphql',
      playgroundAlways: env.bool('GRAPHQL_PLAYGROUND', false),
      depthLimit: 10,
      amountLimit: 100,
    },
  },
});
