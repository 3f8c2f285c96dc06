/** What `new App(options)` takes. */
import type { ConfigTree } from './config/load-config';
import type { Plugin } from './types';

export interface AppOptions {
  /** The app folder (holds `config/` and `src/`). */
  dir: string;
  /** Plugins given directly (tests, embedding), in addition to `config/plugins`. */
  plugins?: Plugin[];
  /** Config values that win over the files (tests). */
  config?: ConfigTree;
  /** How `strapi.reload()` restarts the app (`tessera develop` gives one); without it, reload refuses (strapi/reload.ts). */
  restart?: (reason: string) => void;
}
