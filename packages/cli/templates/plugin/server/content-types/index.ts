import itemSchema from './item/schema.json';

export default {
  item: { schema: itemSchema },
};
