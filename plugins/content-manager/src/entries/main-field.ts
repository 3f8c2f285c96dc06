/**
 * The field a relation picker shows for each related entry (Strapi's `mainField`): what the edit view's
 * configuration says for the relation (`metadatas.<field>.edit.mainField`, kept in the core store under
 * `plugin_content_manager_configuration_{content_types,components}::<uid>`), else the target's first string
 * attribute, else `id`; `id` too when the field cannot be listed or the admin may not read it (Strapi's
 * `sanitizeMainField`).
 */
import type { App } from '@tessera/core';
import type { EntityMetadata } from '@tessera/database';

const NON_LISTABLE = new Set(['json', 'password', 'richtext', 'dynamiczone', 'blocks', 'component', 'media']);

interface StoredConfiguration {
  metadatas?: Record<string, { edit?: { mainField?: unknown } }>;
}

async function configuredMainField(app: App, owner: EntityMetadata, field: string): Promise<string | undefined> {
  const kind = owner.kind === 'component' ? 'components' : 'content_types';
  const stored = (await app.store.get({ type: 'plugin', name: 'content_manager', key: `configuration_${kind}::${owner.uid}` })) as StoredConfiguration | null | undefined;
  const mainField = stored?.metadatas?.[field]?.edit?.mainField;
  return typeof mainField === 'string' ? mainField : undefined;
}

function firstStringAttribute(target: EntityMetadata): string | undefined {
  return Object.keys(target.attributes).find((name) => name !== 'id' && target.columns.get(name)?.type === 'string');
}

export async function mainFieldOf(app: App, owner: EntityMetadata, field: string, target: EntityMetadata, canRead: (field: string) => boolean, hidden: ReadonlySet<string>): Promise<string> {
  const chosen = (await configuredMainField(app, owner, field)) ?? firstStringAttribute(target) ?? 'id';
  if (chosen === 'id') return chosen;
  const column = target.columns.get(chosen);
  const listable = column !== undefined && !hidden.has(chosen) && !NON_LISTABLE.has(column.type);
  return listable && canRead(chosen) ? chosen : 'id';
}
