import config from './config';
import contentTypes from './content-types';
import controllers from './controllers';
import policies from './policies';
import routes from './routes';
import services from './services';

export default {
  register(/* { strapi } */) {},
  bootstrap({ strapi }) {
    strapi.log.info(`{{name}} plugin ready (greeting: ${strapi.plugin('{{name}}').config('greeting')})`);
  },
  destroy(/* { strapi } */) {},
  config,
  contentTypes,
  services,
  controllers,
  routes,
  policies,
};
