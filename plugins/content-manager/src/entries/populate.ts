/**
 * What the content manager reads with each entry, as Strapi 4.26.2's `populate-builder` asks for it:
 * - the list (`populateDeep(1)`, `countRelations({ toOne: false, toMany: true })`): to-one relations as their
 *   entry's own fields, to-many relations as `{ count }`, components, zones and media one level deep;
 * - an entry (find, and what every write answers: `populateDeep(Infinity)`, `countRelations()`): components and
 *   zones at every depth, relations at any depth as `{ count }`, media;
 * - a single type's entry (`getDeepPopulate`): the same, with relations read as their entries' own fields.
 * Each populated attribute is one query per level for all entries (the query engine's rule): what a request costs
 * never depends on how many entries it answers.
 */
import { FILE_UID, type EntityMetadata, type LinkField, type Metadata } from '@tessera/database';

export type Populate = Record<string, unknown>;
type RelationMode = 'count' | 'entries' | 'list';

/** The entity's links in schema order, private ones included (private is for the content API: hidden-fields.ts). */
export function linksOf(entity: EntityMetadata): Array<[string, LinkField]> {
  // Every attribute in schema order: `attributeOrder` is the content API's, without the private ones.
  return Object.keys(entity.attributes).flatMap((name): Array<[string, LinkField]> => {
    const link = entity.links.get(name);
    return link ? [[name, link]] : [];
  });
}

function build(entity: EntityMetadata, metadata: Metadata, relations: RelationMode, deep: boolean): Populate {
  const populate: Populate = {};
  for (const [name, link] of linksOf(entity)) {
    if (link.kind === 'relation') {
      // A relation the content manager does not show (i18n's `localizations`) is read as entries, as Strapi reads it.
      if (!isVisible(link)) populate[name] = true;
      else if (relations === 'count' || (relations === 'list' && link.toMany)) populate[name] = { count: true };
      else populate[name] = true;
    } else if (link.kind === 'media') {
      populate[name] = mediaPopulate(metadata);
    } else if (!deep) {
      populate[name] = true;
    } else if (link.kind === 'component') {
      const component = metadata.get(link.components[0]);
      populate[name] = component ? nested(build(component, metadata, relations, true)) : true;
    } else {
      const on: Record<string, unknown> = {};
      for (const uid of link.components) {
        const component = metadata.get(uid);
        if (component) on[uid] = nested(build(component, metadata, relations, true));
      }
      populate[name] = { on };
    }
  }
  return populate;
}

/** Strapi's `isVisibleAttribute`: a relation a plugin added with `visible: false` is not the content manager's. */
export function isVisible(link: LinkField): boolean {
  return link.kind !== 'relation' || (link.attribute as { visible?: unknown }).visible !== false;
}

/** Media with their folder, as Strapi populates them (`populate: 'folder'`) when the upload plugin has folders. */
function mediaPopulate(metadata: Metadata): Populate | true {
  return metadata.get(FILE_UID)?.links.has('folder') ? { populate: { folder: true } } : true;
}

function nested(populate: Populate): true | { populate: Populate } {
  return Object.keys(populate).length === 0 ? true : { populate };
}

export function listPopulate(entity: EntityMetadata, metadata: Metadata): Populate {
  return build(entity, metadata, 'list', false);
}

export function entryPopulate(entity: EntityMetadata, metadata: Metadata): Populate {
  return build(entity, metadata, 'count', true);
}

export function singleTypePopulate(entity: EntityMetadata, metadata: Metadata): Populate {
  return build(entity, metadata, 'entries', true);
}

/** An entry's components and zones at every depth, without relations or media (what a publish check reads). */
export function componentsPopulate(entity: EntityMetadata, metadata: Metadata): Populate {
  const populate: Populate = {};
  for (const [name, link] of linksOf(entity)) {
    if (link.kind === 'component') {
      const component = metadata.get(link.components[0]);
      populate[name] = component ? nested(componentsPopulate(component, metadata)) : true;
    } else if (link.kind === 'dynamiczone') {
      const on: Record<string, unknown> = {};
      for (const uid of link.components) {
        const component = metadata.get(uid);
        if (component) on[uid] = nested(componentsPopulate(component, metadata));
      }
      populate[name] = { on };
    }
  }
  return populate;
}

/**
 * Strapi's `getDeepPopulateDraftCount`: for each relation into a type with draft & publish (through components
 * and zones too), how many linked entries are drafts. Null when the type has no such relation.
 */
export function draftCountPopulate(entity: EntityMetadata, metadata: Metadata): Populate | null {
  const populate: Populate = {};
  for (const [name, link] of linksOf(entity)) {
    if (link.kind === 'relation') {
      if (isVisible(link) && metadata.get(link.target)?.draftAndPublish) populate[name] = { count: true, filters: { publishedAt: { $null: true } } };
    } else if (link.kind === 'component') {
      const component = metadata.get(link.components[0]);
      const inner = component ? draftCountPopulate(component, metadata) : null;
      if (inner) populate[name] = { populate: inner };
    } else if (link.kind === 'dynamiczone') {
      const on: Record<string, unknown> = {};
      for (const uid of link.components) {
        const component = metadata.get(uid);
        const inner = component ? draftCountPopulate(component, metadata) : null;
        on[uid] = inner ? { populate: inner } : true;
      }
      if (Object.values(on).some((value) => value !== true)) populate[name] = { on };
    }
  }
  return Object.keys(populate).length === 0 ? null : populate;
}

/** Strapi's `sumDraftCounts`: the counts draftCountPopulate read, summed through components and zones. */
export function sumDraftCounts(entry: Record<string, unknown>, entity: EntityMetadata, metadata: Metadata): number {
  let sum = 0;
  for (const [name, link] of linksOf(entity)) {
    const value = entry[name];
    if (value === null || value === undefined) continue;
    if (link.kind === 'relation') {
      const count = (value as { count?: unknown }).count;
      if (typeof count === 'number' && metadata.get(link.target)?.draftAndPublish) sum += count;
    } else if (link.kind === 'component' || link.kind === 'dynamiczone') {
      for (const item of Array.isArray(value) ? value : [value]) {
        const record = item as Record<string, unknown>;
        const uid = link.kind === 'component' ? link.components[0] : String(record.__component);
        const component = metadata.get(uid);
        if (component) sum += sumDraftCounts(record, component, metadata);
      }
    }
  }
  return sum;
}
