/**
 * What `require('@strapi/plugin-users-permissions/strapi-server')` answers in Strapi code (the kernel redirects it
 * here): this plugin's server definition in Strapi's format (core's strapi-server-module.ts). A service made with
 * `{ strapi }` finds that app's state (the JWT secret, made at register: state.ts), whichever definition made it.
 */
import { strapiServerModule } from '@tessera/core';
import { createUsersPermissionsPlugin } from './index';

export = strapiServerModule(createUsersPermissionsPlugin());
