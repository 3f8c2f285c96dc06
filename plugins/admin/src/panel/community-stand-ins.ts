/**
 * Admin sides Tessera writes itself for plugins Strapi's panel always has. A Strapi app's panel always holds
 * `@strapi/content-releases` (`@strapi/strapi` depends on it and `@strapi/strapi/admin` adds it), so other admin
 * sides count on it: `@strapi/plugin-i18n` 4.26.2 registers its `add-locale-in-releases` hook at bootstrap, and the
 * panel throws ("The hook … is not defined") and shows nothing when no plugin created that hook. A Tessera app need
 * not install `@strapi/strapi`, nor `@strapi/content-releases` with it (npm's `--legacy-peer-deps`, yarn and pnpm
 * leave `@strapi/admin`'s peer out). In a community edition content releases' admin side does nothing but create
 * that hook (its menu link and edit-view panels wait for the Enterprise feature `cms-content-releases`), so when
 * the package is missing this stand-in does just that.
 */
import { createHash } from 'node:crypto';

export interface StandIn {
  /** The key in the panel's plugin map, as Strapi's bundled plugin has it. */
  name: string;
  /** The module's file name in the build's runtime folder (`.strapi/client`). */
  file: string;
  /** The module's source: an admin side's `register`/`bootstrap`, as `renderAdmin` takes them. */
  source: string;
}

/** What `@strapi/content-releases` 4.26.2's admin side does in a community edition. */
export const CONTENT_RELEASES_COMMUNITY: StandIn = {
  name: 'contentReleases',
  file: 'content-releases-community.js',
  source: [
    '/** Written by tessera build: @strapi/content-releases is not installed; in a community edition its admin side only creates this hook. */',
    'export default {',
    '  register(app) {',
    "    app.createHook('ContentReleases/pages/ReleaseDetails/add-locale-in-releases');",
    '  },',
    '};',
    '',
  ].join('\n'),
};

/** The stand-in's version for the build's stamp: a change of its source rebuilds the panel. */
export function standInVersion(standIn: StandIn): string {
  return `tessera-stand-in:${createHash('sha256').update(standIn.source).digest('hex').slice(0, 16)}`;
}
