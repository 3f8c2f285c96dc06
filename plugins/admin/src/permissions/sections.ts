/**
 * `GET /admin/permissions`: every registered action and condition, in the
 * sections the panel's role editor draws (Strapi 4.26.2's sections builder):
 * `plugins` and `settings` as lists, `singleTypes` and `collectionTypes` as
 * the content-type actions with the subjects of that kind, each with its
 * field tree and, with i18n, its locales.
 */
import type { AdminAction, App } from '@tessera/core';
import { fieldTree, type FieldNode } from './subjects';

interface Property {
  label: string;
  value: string;
  children: Array<FieldNode | { label: string; value: string }>;
}

interface Subject {
  uid: string;
  label: string;
  properties: Property[];
}

interface ContentTypesSection {
  actions: Array<{ label: string; actionId: string; subjects: string[] | undefined; applyToProperties: string[] | null }>;
  subjects: Subject[];
}

export interface PermissionSections {
  conditions: Array<{ id: string; displayName: string; category: string }>;
  sections: {
    plugins: Array<{ displayName: string; plugin: string | undefined; subCategory: string | undefined; action: string }>;
    settings: Array<{ displayName: string; category: string | undefined; subCategory: string | undefined; action: string }>;
    singleTypes: ContentTypesSection;
    collectionTypes: ContentTypesSection;
  };
}

const LOCALE_UID = 'plugin::i18n.locale';

async function localeChoices(app: App): Promise<Array<{ label: string; value: string }>> {
  if (!app.contentTypes.has(LOCALE_UID)) return [];
  const rows = await app.db.query(LOCALE_UID).findMany({ select: ['name', 'code'], orderBy: [{ id: 'asc' }] });
  return rows.map((row) => ({ label: String(row.name || row.code), value: String(row.code) }));
}

async function contentTypesSection(app: App, actions: AdminAction[], kind: 'singleType' | 'collectionType', locales: Array<{ label: string; value: string }>): Promise<ContentTypesSection> {
  const { actionProvider } = app.admin.services.permission;
  const section: ContentTypesSection = { actions: [], subjects: [] };
  for (const action of actions) {
    section.actions.push({ label: action.displayName, actionId: action.actionId, subjects: action.subjects, applyToProperties: action.options.applyToProperties });
    for (const uid of action.subjects ?? []) {
      const type = app.contentTypes.find(uid);
      if (!type || type.kind !== kind || section.subjects.some((subject) => subject.uid === uid)) continue;
      section.subjects.push({ uid, label: type.info.singularName, properties: [] });
    }
    for (const subject of section.subjects) {
      if (!action.subjects?.includes(subject.uid) || subject.properties.some((property) => property.value === 'fields')) continue;
      subject.properties.push({ label: 'Fields', value: 'fields', children: fieldTree(app, app.contentTypes.get(subject.uid)) });
    }
    if (locales.length === 0) continue;
    for (const subject of section.subjects) {
      if (subject.properties.some((property) => property.value === 'locales')) continue;
      if (await actionProvider.appliesToProperty('locales', action.actionId, subject.uid)) subject.properties.push({ label: 'Locales', value: 'locales', children: locales });
    }
  }
  return section;
}

export async function permissionSections(app: App): Promise<PermissionSections> {
  const { actionProvider, conditionProvider } = app.admin.services.permission;
  const actions = actionProvider.values();
  const locales = await localeChoices(app);
  const contentTypeActions = actions.filter((action) => action.section === 'contentTypes');
  return {
    conditions: conditionProvider.values().map(({ id, displayName, category }) => ({ id, displayName, category })),
    sections: {
      plugins: actions.filter((action) => action.section === 'plugins').map((action) => ({ displayName: action.displayName, plugin: action.pluginName, subCategory: action.subCategory, action: action.actionId })),
      settings: actions.filter((action) => action.section === 'settings').map((action) => ({ displayName: action.displayName, category: action.category, subCategory: action.subCategory, action: action.actionId })),
      singleTypes: await contentTypesSection(app, contentTypeActions, 'singleType', locales),
      collectionTypes: await contentTypesSection(app, contentTypeActions, 'collectionType', locales),
    },
  };
}
