/**
 * The transfer-token actions of the role editor and of the routes' policies. Strapi registers them whether data
 * transfer is on or not (the peer's Super Admin, transfer off, passes `admin::hasPermissions` and gets the
 * middleware's 404), so they are always registered here too.
 */
import type { AdminActionDefinition, App } from '@tessera/core';

const transferAction = (verb: string, displayName: string, subCategory = 'general'): AdminActionDefinition => ({
  uid: `transfer.tokens.${verb}`,
  displayName,
  pluginName: 'admin',
  section: 'settings',
  category: 'transfer tokens',
  subCategory,
});

/** Strapi 4.26.2's transfer-token actions, in its order (after the project settings'). */
export const TRANSFER_TOKEN_ACTIONS: AdminActionDefinition[] = [
  transferAction('access', 'Access the transfer tokens settings page', 'transfer tokens'),
  transferAction('create', 'Create (generate)'),
  transferAction('read', 'Read'),
  transferAction('update', 'Update'),
  transferAction('regenerate', 'Regenerate'),
  transferAction('delete', 'Delete (revoke)'),
];

/** In the admin plugin's register, after the catalogue's actions. */
export function registerTransferActions(app: App): void {
  for (const action of TRANSFER_TOKEN_ACTIONS) app.admin.services.permission.actionProvider.register(structuredClone(action));
}
