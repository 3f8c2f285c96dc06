/**
 * The entry routes' controllers, by Strapi's controller names (`collection-types`, `single-types`, `relations`),
 * each made once per app from its concern's module.
 */
import type { App } from '@tessera/core';
import { bulkActions } from './bulk';
import { cloning } from './clone';
import { collectionTypes } from './collection-types';
import { relationPickers } from './relations';
import { singleTypes } from './single-types';

export const ENTRY_CONTROLLERS = {
  'collection-types': ({ app }: { app: App }) => ({ ...collectionTypes(app), ...bulkActions(app), ...cloning(app) }),
  'single-types': ({ app }: { app: App }) => singleTypes(app),
  relations: ({ app }: { app: App }) => relationPickers(app),
};
