/**
 * What `require('@strapi/plugin-graphql/strapi-server')` answers in Strapi code (the kernel redirects it here):
 * this plugin's server definition in Strapi's format, a function returning it (core's strapi-server-module.ts).
 */
import { strapiServerModule } from '@tessera/core';
import { graphqlPlugin } from './index';

export = strapiServerModule(graphqlPlugin);
