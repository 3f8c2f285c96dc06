/**
 * What `require('@strapi/strapi/dist/utils/ee')` answers while `tessera build`
 * loads `@strapi/admin`'s build module (load-module.ts maps it here): Strapi's
 * edition switch, as a community edition without a license answers it. The
 * build module only keeps a reference; nothing here is called on Tessera's path.
 */
const communityEdition = {
  init(): void {},
  get isEE(): boolean {
    return false;
  },
  features: {
    isEnabled: (): boolean => false,
    list: (): unknown[] => [],
    get: (): undefined => undefined,
  },
};

export = communityEdition;
