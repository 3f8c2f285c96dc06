/**
 * What `require('@strapi/plugin-users-permissions/strapi-server')` answers in Strapi code (the kernel redirects it
 * here): this plugin's server definition in Strapi's format (core's strapi-server-module.ts). Its services hold
 * per-app state made at register (the JWT secret), so one made with `{ strapi }` is made by the instance running in
 * that app.
 */
import { strapiServerModule } from '@tessera/core';
import { createUsersPermissionsPlugin, registeredInstance } from './index';

export = strapiServerModule(createUsersPermissionsPlugin(), registeredInstance);
