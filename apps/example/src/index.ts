import type { App } from '@tessera/core';
import { seedExampleContent } from './seed';

export default {
  register(/* { strapi, app } */) {},
  /** Sample content on the first run: only into an empty database; SEED=false turns it off. */
  async bootstrap({ app }: { app: App }) {
    await seedExampleContent(app);
  },
};
