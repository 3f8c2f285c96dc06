export default {
  register(/* { app } */) {},
  bootstrap(/* { app } */) {},
};
