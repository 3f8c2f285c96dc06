/**
 * `@tessera/errors`: the catalogue (catalogue.ts), the names Strapi code
 * imports from `@strapi/utils` (strapi-utils.ts), and the closest-name helper.
 */
export * from './catalogue';
export { closest, editDistance } from './closest';
export { printValue } from './print-value';
export { errors } from './strapi-utils';
