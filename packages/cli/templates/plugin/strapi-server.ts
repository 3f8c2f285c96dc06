// The plugin's entry, as in Strapi v4: the server side lives in ./server.
export { default } from './server';
