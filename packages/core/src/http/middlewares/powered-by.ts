/** `strapi::poweredBy`: `X-Powered-By: Tessera`, or the configured `poweredBy` text. */
import type { Builtin } from './builtin';

export const poweredBy: Builtin = {
  keys: ['poweredBy'],
  create(config) {
    return { headers: [['X-Powered-By', String(config.poweredBy ?? 'Tessera')]] };
  },
};
