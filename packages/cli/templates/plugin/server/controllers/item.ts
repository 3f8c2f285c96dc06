// Actions answer with what they return (or set ctx.body). The ids and titles of items are the plugin's own shape.
export default ({ strapi }) => {
  const items = () => strapi.plugin('{{name}}').service('item');
  return {
    async find() {
      const found = await items().find();
      return { data: found.map(({ id, title }) => ({ id, title })), meta: { greeting: items().greeting() } };
    },
    async create(ctx) {
      const { id, title } = await items().create({ title: ctx.request.body.data.title });
      return { data: { id, title }, meta: {} };
    },
  };
};
