// The plugin's config: `default`, merged with config/plugins.ts, then checked by `validator` (throwing stops the boot).
export default {
  default: { greeting: 'Hello' },
  validator(config: { greeting?: unknown }) {
    if (typeof config.greeting !== 'string' || config.greeting === '') throw new Error('greeting must be a non-empty string');
  },
};
