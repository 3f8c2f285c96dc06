/**
 * The content manager's model routes (content types, components, their view configurations, uid fields), declared
 * as Strapi 4.26.2's content-manager `server/routes/admin.js` declares them, policies included. Filled in by the
 * layouts work (issue 39); the entry routes live in routes/entries.ts.
 */
import type { RouteConfig } from '@tessera/core';

export const LAYOUT_ROUTES: RouteConfig[] = [];
