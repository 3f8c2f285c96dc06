// Server code is trusted: the entity service validates the data but checks no permission.
const UID = 'plugin::{{name}}.item';

export default ({ strapi }) => ({
  find() {
    return strapi.entityService.findMany(UID, {});
  },
  create(data: { title: string }) {
    return strapi.entityService.create(UID, { data });
  },
  greeting(): string {
    return strapi.plugin('{{name}}').config('greeting');
  },
});
