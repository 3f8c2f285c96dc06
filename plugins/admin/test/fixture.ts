import fs from 'node:fs';
import path from 'node:path';
import type { TestApp } from '@tessera/testing';

/** The test app of the admin tests: a Strapi app's package.json (it depends on `@strapi/admin`, which turns the admin on) and one API. */
export const ADMIN_APP_FILES = {
  'package.json': { name: 'admin-test-app', version: '0.1.0', dependencies: { '@strapi/admin': '4.26.2' } },
  'src/api/note/content-types/note/schema.json': {
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    attributes: { title: { type: 'string' } },
  },
};

/**
 * The Strapi 4.26.2 peer's own app (shared/strapi4-peer: its schemas, copied in fixtures/peer-model) with the
 * plugins it runs: what the admin recordings were made on, so answers that list types, fields and plugins compare.
 */
export function peerModelFiles(): Record<string, string | object> {
  const root = path.join(__dirname, 'fixtures', 'peer-model');
  const files: Record<string, string | object> = {
    'package.json': {
      name: 'admin-peer-model',
      version: '0.1.0',
      dependencies: { '@strapi/strapi': '4.26.2', '@strapi/admin': '4.26.2', '@strapi/plugin-users-permissions': '4.26.2', '@strapi/plugin-i18n': '4.26.2' },
    },
  };
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(root, full)] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(root);
  return files;
}

/** Tessera does not serve Strapi's data transfer: its token actions are not registered. */
const isTransfer = (entry: { action?: string }) => entry.action?.startsWith('admin::transfer.') === true;

/** What differs by nature between two runs: timestamps, generated role codes, permission ids. */
export function normalise(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), function (this: Record<string, unknown>, key, item: unknown) {
    if ((key === 'createdAt' || key === 'updatedAt') && typeof item === 'string') return '<timestamp>';
    if (key === 'code' && typeof item === 'string' && !item.startsWith('strapi-')) return item.replace(/-[a-z0-9]{7,9}$/, '-<time36>');
    if (key === 'id' && 'actionParameters' in this) return '<id>';
    return item;
  });
}

export function withoutTransfer<T>(sections: T): T {
  const copy = structuredClone(sections) as { data: { sections: { settings: Array<{ action: string }> } } };
  copy.data.sections.settings = copy.data.sections.settings.filter((entry) => !isTransfer(entry));
  return copy as T;
}

export async function addLocales(app: TestApp): Promise<void> {
  for (const [code, name] of [['fr', 'French (fr)'], ['de', 'German (de)']]) await app.app.db.query('plugin::i18n.locale').create({ data: { code, name } });
}

