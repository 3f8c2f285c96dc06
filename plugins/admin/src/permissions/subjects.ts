/**
 * The content types admin permissions are about, and their field paths, as
 * Strapi 4.26.2 computes them: the content manager's subjects are the content
 * types it displays (`pluginOptions['content-manager'].visible` not false),
 * publish only those with draft and publish; a permission's `fields` are the
 * visible attributes' paths, components walked into (`seo.metaTitle`), a
 * component with no field of its own kept as its path.
 */
import type { App, Attribute, ContentType } from '@tessera/core';

/** Never permission fields: Strapi's non-visible attributes (ids, timestamps, authorship, i18n's own). */
const SYSTEM_ATTRIBUTES = new Set(['id', 'createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy', 'locale', 'localizations']);

/** Strapi's nesting limit for field paths. */
const NESTING_LEVEL = 15;

/**
 * Shown in the content manager: not a kernel type (`admin::`, `strapi::`, hidden on Strapi too), and not hidden by
 * its own definition — each plugin's types say so as Strapi's schemas do (the media library's files and folders,
 * users-permissions' roles and permissions, i18n's locales: `pluginOptions['content-manager'].visible: false`),
 * so no other plugin's uid is named here.
 */
export function isDisplayed(type: ContentType): boolean {
  if (type.uid.startsWith('admin::') || type.uid.startsWith('strapi::')) return false;
  const options = (type.pluginOptions as { 'content-manager'?: { visible?: unknown } } | undefined)?.['content-manager'];
  return options?.visible !== false;
}

export function hasDraftAndPublish(type: ContentType): boolean {
  return type.options?.draftAndPublish === true;
}

export function isLocalized(type: ContentType | undefined): boolean {
  return (type?.pluginOptions as { i18n?: { localized?: unknown } } | undefined)?.i18n?.localized === true;
}

/** The content manager's subjects: every displayed content type, plugins' before the app's (Strapi's registry order). */
export function displayedTypes(app: App): ContentType[] {
  const displayed = app.contentTypes.values().filter(isDisplayed);
  return [...displayed.filter((type) => !type.uid.startsWith('api::')), ...displayed.filter((type) => type.uid.startsWith('api::'))];
}

type Model = { attributes: Record<string, Attribute> };

export function visibleAttributes(model: Model): Array<[string, Attribute]> {
  return Object.entries(model.attributes).filter(([name, attribute]) => !SYSTEM_ATTRIBUTES.has(name) && (attribute as { visible?: unknown }).visible !== false);
}

function componentOf(app: App, attribute: Attribute): Model | undefined {
  return attribute.type === 'component' ? app.components.find((attribute as { component: string }).component) : undefined;
}

/**
 * Strapi's `getNestedFields`: leaf paths (`requiredOnly`: required ones, and those under `existing` paths).
 * A component without fields of its own is its path.
 */
export function nestedFields(app: App, model: Model, options: { prefix?: string; level?: number; requiredOnly?: boolean; existing?: readonly string[] } = {}): string[] {
  const { prefix = '', level = NESTING_LEVEL, requiredOnly = false, existing = [] } = options;
  if (level === 0) return prefix ? [prefix] : [];
  const fields: string[] = [];
  for (const [name, attribute] of visibleAttributes(model)) {
    const path = prefix ? `${prefix}.${name}` : name;
    const included = !requiredOnly || attribute.required === true;
    const component = componentOf(app, attribute);
    if (component) {
      const inside = existing.some((field) => field.startsWith(path));
      if (!included && !inside) continue;
      const inner = nestedFields(app, component, { prefix: path, level: level - 1, requiredOnly, existing });
      if (inner.length === 0 && included) fields.push(path);
      else fields.push(...inner);
    } else if (included) {
      fields.push(path);
    }
  }
  return fields;
}

/** Strapi's `getNestedFieldsWithIntermediate`: every path, components' own paths included. */
export function allFieldPaths(app: App, model: Model, prefix = '', level = NESTING_LEVEL): string[] {
  if (level === 0) return [];
  const paths: string[] = [];
  for (const [name, attribute] of visibleAttributes(model)) {
    const path = prefix ? `${prefix}.${name}` : name;
    paths.push(path);
    const component = componentOf(app, attribute);
    if (component) paths.push(...allFieldPaths(app, component, path, level - 1));
  }
  return paths;
}

/**
 * Strapi's `cleanPermissionFields` for one permission's fields: those that still exist, plus required ones, parents
 * dropped when a child is listed.
 */
export function cleanFields(app: App, type: ContentType, fields: readonly string[]): string[] {
  const possible = new Set(allFieldPaths(app, type));
  const required = nestedFields(app, type, { requiredOnly: true, existing: fields });
  const kept = [...new Set([...fields.filter((field) => possible.has(field)), ...required])];
  return kept.filter((field) => !kept.some((other) => other.startsWith(`${field}.`)));
}

/** The role editor's field tree of a model (Strapi's `buildDeepAttributesCollection`). */
export interface FieldNode {
  label: string;
  value: string;
  required?: true;
  children?: FieldNode[];
}

export function fieldTree(app: App, model: Model): FieldNode[] {
  return visibleAttributes(model).map(([name, attribute]) => {
    const node: FieldNode = { label: name, value: name };
    if (attribute.required === true) node.required = true;
    const component = componentOf(app, attribute);
    if (component) node.children = fieldTree(app, component);
    return node;
  });
}
