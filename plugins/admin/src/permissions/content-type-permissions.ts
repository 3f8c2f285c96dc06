/**
 * The permissions of content-type actions on each of their subjects, with
 * every field where the action takes fields (Strapi 4.26.2's
 * `getPermissionsWithNestedFields`): what the Super Admin, Editor and Author
 * are given.
 */
import type { AdminAction, App } from '@tessera/core';
import type { PermissionInput } from './store';
import { nestedFields } from './subjects';

/** The permissions of content-type actions on their subjects, with every field (Strapi's `getPermissionsWithNestedFields`). */
export function permissionsWithFields(app: App, actions: readonly AdminAction[], restricted: readonly string[] = []): PermissionInput[] {
  const permissions: PermissionInput[] = [];
  for (const action of actions) {
    for (const subject of action.subjects ?? []) {
      if (restricted.includes(subject)) continue;
      const type = app.contentTypes.find(subject);
      const fields = action.options.applyToProperties?.includes('fields') && type ? nestedFields(app, type) : undefined;
      permissions.push({ action: action.actionId, subject, properties: fields === undefined ? {} : { fields } });
    }
  }
  return permissions;
}

