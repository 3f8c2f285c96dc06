export default {
  /** Runs before the database is connected: register extra services, hooks... */
  register(/* { app } */) {},

  /** Runs once the database is ready, before the server listens. */
  bootstrap(/* { app } */) {},
};
