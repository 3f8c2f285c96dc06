/**
 * `populate` → which relations, media, components and dynamic zones to load,
 * each with its own fields/filters/sort/populate. Forms: `*`, `a,b`,
 * `['a', 'b.c']`, `{ a: true }`, `{ a: { fields, filters, sort, populate,
 * count, start, limit } }`, `{ zone: { on: { 'x.y': {...} } } }`.
 *
 * Forms mix and merge (`a.b,a.c`, `[{ tags: {…} }, 'category']`; see
 * populate-forms.ts). Unknown keys are ignored like Strapi v4, whatever
 * their value (rejected in strict mode). A
 * relation to a type the caller may not read is left out, and populated
 * entries keep the request's publication state.
 *
 * Populate is what makes a query recursive, so one level of a query (the
 * root, or what a populated attribute reads) is compiled here too.
 */
import type { EntityMetadata, LinkField } from '../metadata/metadata';
import type { Condition, ReadPlan, PopulateItem, PublicationState, SortItem } from './plan';
import { FILE_UID } from '../metadata/media';
import type { CompileContext, QueryParams } from './compile-context';
import { invalidParameter, isPlainObject, unknownParameter } from './compile-context';
import { mergeSpecs, populatePairs, populateSpec, type PopulateSpec } from './populate-forms';
import { compileFields } from './compile-fields';
import { compileFilters } from './compile-filters';
import { compileSort } from './compile-sort';
import { compileLinkPage } from './compile-link-page';

const MAX_POPULATE_DEPTH = 10;
/** What a populate object may hold (`populate[category][fields]=name`); anything else is a 400 in strict mode. */
const POPULATE_OPTIONS = ['fields', 'filters', 'sort', 'populate', 'count', 'on', 'start', 'limit'];

/** One level: the root query, and each populated relation, media or component with its own parameters. */
export function compileReadPlan(
  params: QueryParams,
  entity: EntityMetadata,
  context: CompileContext,
  publicationState: PublicationState,
  depth = 0,
): ReadPlan {
  const where: Condition | null = compileFilters(params.filters, entity, context);
  const sort: SortItem[] = compileSort(params.sort, entity, context);
  return {
    entity,
    fields: compileFields(params.fields, entity, context.options.allowPrivate),
    where,
    sort,
    populate: compilePopulate(params.populate, entity, context, publicationState, depth),
    publicationState,
  };
}

/**
 * Whether the caller may see files: media attributes are populated — and, in
 * the content API, written — only then. One rule for both, so reading and
 * linking files never disagree.
 */
export function mayReadMedia(canRead: ((uid: string) => boolean) | undefined): boolean {
  return canRead === undefined || canRead(FILE_UID);
}

export function compilePopulate(
  value: unknown,
  entity: EntityMetadata,
  context: CompileContext,
  publicationState: PublicationState,
  depth = 0,
): Map<string, PopulateItem> {
  const populate = new Map<string, PopulateItem>();
  if (value === undefined || value === null || value === '' || value === false || value === 'false') return populate;
  if (depth > MAX_POPULATE_DEPTH) throw invalidParameter('populate', 'nested too deeply');
  const strict = context.options.strictParams === true;
  // Values for one attribute, merged in the order given (`a.b,a.c` is `a` with both).
  const specs = new Map<string, PopulateSpec>();
  const pairs = populatePairs(value).flatMap(([name, raw]): Array<[string, unknown]> =>
    name === '*' ? expandStar(entity).map((link) => [link, true]) : [[name, raw]],
  );
  for (const [name, raw] of pairs) {
    const link = entity.links.get(name);
    // Server code (trusted, allowPrivate) may name a private relation, as Strapi's query engine populates it.
    if (!link || (link.private && context.options.allowPrivate !== true)) {
      if (strict) throw unknownParameter(name, expandStar(entity));
      continue; // whatever its value: Strapi v4 ignores a key that is not an attribute
    }
    const spec = populateSpec(raw, name, strict);
    const previous = specs.get(name);
    specs.set(name, previous === undefined ? spec : mergeSpecs(previous, spec));
  }
  for (const [name, spec] of specs) {
    if (spec === false) continue;
    const link = entity.links.get(name) as LinkField;
    if (strict && spec !== true) checkOptions(spec);
    // A relation into a type the caller may not read is left out, named or through `*` (Strapi v4, sample 84).
    if (link.kind === 'relation' && context.options.canRead && !context.options.canRead(link.target)) continue;
    const item = compileItem(entity, link, spec, context, publicationState, depth);
    if (item) populate.set(name, item);
  }
  return populate;
}

function checkOptions(spec: Record<string, unknown>): void {
  for (const key of Object.keys(spec)) {
    if (!POPULATE_OPTIONS.includes(key)) throw unknownParameter(key, POPULATE_OPTIONS);
  }
}

function compileItem(
  owner: EntityMetadata,
  link: LinkField,
  spec: true | Record<string, unknown>,
  context: CompileContext,
  publicationState: PublicationState,
  depth: number,
): PopulateItem | null {
  const params = spec === true ? {} : (spec as QueryParams & { count?: unknown; on?: unknown; start?: unknown; limit?: unknown });
  if (link.kind === 'relation') {
    const target = context.metadata.get(link.target);
    if (!target) return null;
    const countOnly = params.count === true || params.count === 'true';
    const page = link.toMany && !countOnly ? compileLinkPage(params, link.name) : undefined;
    return {
      kind: 'relation',
      relation: link,
      target,
      query: nested(params, target, context, publicationState, depth),
      countOnly,
      ...(page ? { page } : {}),
    };
  }
  if (link.kind === 'media') {
    if (!mayReadMedia(context.options.canRead)) return null;
    const files = context.metadata.get(FILE_UID);
    const query = files ? nested(params, files, context, 'preview', depth) : null;
    return { kind: 'media', name: link.name, multiple: link.multiple, query, owner };
  }
  const queries = new Map<string, ReadPlan>();
  const on = isPlainObject(params.on) ? params.on : undefined;
  for (const uid of link.components) {
    const component = context.metadata.get(uid);
    if (!component) continue;
    const componentParams = link.kind === 'dynamiczone' ? dynamicZoneParams(on, uid, params.populate) : params;
    if (componentParams === null) continue;
    queries.set(uid, nested(componentParams, component, context, publicationState, depth));
  }
  return { kind: link.kind, name: link.name, field: link, owner, queries };
}

/**
 * `on[uid]` for one component of a zone; a component `on` does not name is left out of the zone (null), as
 * Strapi 4.26.2 answers `populate[blocks][on][blocks.faq]=…`: only the named components' entries.
 * Without `on`, Strapi v4's shared strategy: the zone's own `populate` applies to every component.
 */
function dynamicZoneParams(on: Record<string, unknown> | undefined, uid: string, shared: unknown): QueryParams | null {
  if (on === undefined) return shared === undefined ? {} : { populate: shared };
  if (on[uid] === undefined) return null;
  const spec = populateSpec(on[uid], `on.${uid}`, false);
  return typeof spec === 'boolean' ? {} : spec;
}

function nested(
  params: QueryParams,
  target: EntityMetadata,
  context: CompileContext,
  publicationState: PublicationState,
  depth: number,
): ReadPlan {
  return compileReadPlan(params, target, context, publicationState, depth + 1);
}

/** `populate=*`: every public link of the entity, one level deep. */
export function expandStar(entity: EntityMetadata): string[] {
  return [...entity.links.values()].filter((link) => !link.private).map((link) => link.name);
}
