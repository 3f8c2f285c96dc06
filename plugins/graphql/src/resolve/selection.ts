/**
 * The selection set of a query → the content API's `fields` and `populate`.
 * This is what keeps GraphQL free of N+1: one `find` loads the page and,
 * like REST populate, one query per selected relation per level for all
 * parents; nested fields then resolve from the loaded data.
 *
 *   articles { data { id attributes { title category { data { attributes { name } } } } } }
 *   → fields: ['title'], populate: { category: { fields: ['name'] } }
 *
 * A relation selected twice with different arguments (aliases) is not
 * populated: its resolver loads it in a batch instead (relation-loader.ts).
 */
import {
  getArgumentValues,
  GraphQLObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { linkTarget } from '@tessera/database';
import { isToMany, type GraphqlAttribute, type GraphqlModel, type SchemaModel } from '../model';
import { plain, toRestFilters } from './args';
import { holdsVariable } from '../execute/operation-plan';
import type { GraphqlLimits } from './link-page';
import { populatePage } from './link-page';

/** A selection set as the content API's `fields` and `populate`. */
export interface SelectionParams {
  /** Scalar attributes to select; undefined: all of them. */
  fields?: string[];
  populate: Record<string, unknown>;
}

export interface SelectionContext {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

const TIMESTAMPS = new Set(['createdAt', 'updatedAt', 'publishedAt']);
/** Plans kept per field node: one per (nodes, model) pair, a handful at most for a node of a cached document. */
const MAX_PLANS_PER_NODE = 4;

type ResponsePlan = { plan: SelectionParams; withMeta: boolean };
type KeptPlan = { nodes: readonly FieldNode[]; model: GraphqlModel; result: ResponsePlan };

export class SelectionPlanner {
  /** Keyed by the first field node: the endpoint keeps parsed documents, so a repeated query brings the same nodes. */
  private readonly kept = new WeakMap<FieldNode, KeptPlan[]>();

  constructor(
    private readonly schemaModel: SchemaModel,
    /** Types with fields an extension added: their resolvers may read any attribute, so all are loaded. */
    private readonly extendedTypes: ReadonlySet<string>,
    private readonly limits: GraphqlLimits,
  ) {}

  /** For a field returning `<Type>EntityResponse(Collection)` or a relation collection: the plan and whether `meta` is asked for. */
  forResponse(nodes: readonly FieldNode[], model: GraphqlModel, context: SelectionContext): ResponsePlan {
    const response = collect(selectionSets(nodes), context);
    const entities = collect(selectionSets(response.get('data') ?? []), context);
    const attributes = selectionSets(entities.get('attributes') ?? []);
    return { plan: this.forAttributes(attributes, model, context), withMeta: response.has('meta') };
  }

  /**
   * forResponse, made once per field nodes when no variable reaches their
   * selection (what variables may change are relation arguments). For the
   * shadow-CRUD resolvers, which only read the plan.
   */
  keptForResponse(nodes: readonly FieldNode[], model: GraphqlModel, context: SelectionContext): ResponsePlan {
    if (nodes.length === 0) return this.forResponse(nodes, model, context);
    const kept = this.kept.get(nodes[0]) ?? [];
    const hit = kept.find((entry) => entry.model === model && sameNodes(entry.nodes, nodes));
    if (hit) return hit.result;
    const result = this.forResponse(nodes, model, context);
    if (kept.length < MAX_PLANS_PER_NODE && !reachesVariables(selectionSets(nodes), context.fragments, new Set())) {
      kept.push({ nodes: [...nodes], model, result });
      this.kept.set(nodes[0], kept);
    }
    return result;
  }

  /** For the attributes of one entity (or component) type. */
  forAttributes(sets: SelectionSetNode[], model: GraphqlModel, context: SelectionContext): SelectionParams {
    const selected = collect(sets, context);
    const fields = new Set<string>();
    const populate: Record<string, unknown> = {};
    for (const [name, nodes] of selected) {
      if (TIMESTAMPS.has(name)) {
        fields.add(name);
        continue;
      }
      const entry = model.attributes.find((candidate) => candidate.name === name && candidate.output);
      if (!entry) continue;
      const spec = this.linkSpec(entry, nodes, model, context);
      if (spec === undefined) fields.add(name);
      else if (spec !== null) populate[name] = spec;
    }
    const plan: SelectionParams = { populate };
    if (!this.extendedTypes.has(model.typeName)) plan.fields = [...fields];
    return plan;
  }

  /** The populate entry of one link field, for its resolver's own nodes and arguments (the batch loader's input). */
  populateFor(entry: GraphqlAttribute, nodes: readonly FieldNode[], args: Record<string, unknown>, context: SelectionContext): Record<string, unknown> {
    return (this.linkWith(entry, [...nodes], args, context) ?? {}) as Record<string, unknown>;
  }

  /** undefined: a scalar; null: a link left to its resolver; otherwise the populate entry. */
  private linkSpec(entry: GraphqlAttribute, nodes: FieldNode[], owner: GraphqlModel, context: SelectionContext): unknown {
    const attribute = entry.attribute;
    if (attribute.type === 'relation' || attribute.type === 'media') {
      const args = sameArguments(nodes, owner, context);
      if (args === null) return null;
      return this.linkWith(entry, nodes, args, context);
    }
    // A component's arguments do not change what is loaded (the whole list): aliases share one load.
    if (attribute.type === 'component') return this.linkWith(entry, nodes, {}, context);
    if (attribute.type === 'dynamiczone') return this.dynamicZoneSpec(nodes, attribute.components, context);
    return undefined;
  }

  private linkWith(entry: GraphqlAttribute, nodes: FieldNode[], args: Record<string, unknown>, context: SelectionContext): Record<string, unknown> | null {
    const attribute = entry.attribute;
    if (attribute.type === 'relation' || attribute.type === 'media') {
      const target = this.schemaModel.get(linkTarget(attribute)!);
      if (!target) return null;
      const { plan } = this.forResponse(nodes, target, context);
      // A relation list is read up to its page's end (per parent, in the same query); media lists are read whole.
      const page = attribute.type === 'relation' && isToMany(attribute) ? populatePage(args.pagination, this.limits) : {};
      return { ...planToPopulate(plan), ...this.relationParams(args, target), ...page };
    }
    if (attribute.type === 'component') {
      const target = this.schemaModel.get(attribute.component);
      if (!target) return null;
      // Component lists are read whole, in stored order; their `filters` and `sort` are applied by the field's resolver.
      return planToPopulate(this.forAttributes(selectionSets(nodes), target, context));
    }
    if (attribute.type === 'dynamiczone') return this.dynamicZoneSpec(nodes, attribute.components, context);
    return null;
  }

  /**
   * `populate[zone][on][uid]` from the zone's fragments (`... on ComponentSharedQuote { text }`). A GraphQL zone
   * answers every entry (one without a fragment shows its `__typename`), and `on` leaves out the components it does
   * not name: so every component of the zone is named, with its own fields when no fragment asks for more.
   */
  private dynamicZoneSpec(nodes: FieldNode[], components: readonly string[], context: SelectionContext): Record<string, unknown> {
    const on: Record<string, unknown> = Object.fromEntries(components.map((uid) => [uid, {}]));
    for (const [typeName, sets] of byTypeCondition(selectionSets(nodes), context)) {
      const member = this.schemaModel.components.find((component) => component.typeName === typeName);
      if (member) on[member.uid] = planToPopulate(this.forAttributes(sets, member, context));
    }
    return { on };
  }

  /** A relation's own `filters` and `sort` (its page is cut from the loaded list by the field's resolver). */
  private relationParams(args: Record<string, unknown>, target: GraphqlModel): Record<string, unknown> {
    const params: Record<string, unknown> = {};
    if (args.filters) params.filters = toRestFilters(plain(args.filters), target, this.schemaModel);
    const sort = args.sort as unknown[] | undefined;
    if (Array.isArray(sort) && sort.length > 0) params.sort = [...sort];
    return params;
  }
}

function planToPopulate(plan: SelectionParams): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  if (plan.fields) spec.fields = plan.fields.length > 0 ? plan.fields : ['id'];
  if (Object.keys(plan.populate).length > 0) spec.populate = plan.populate;
  return spec;
}

/** The arguments every occurrence of a field shares, or null when aliases ask for different ones. */
function sameArguments(nodes: FieldNode[], owner: GraphqlModel, context: SelectionContext): Record<string, unknown> | null {
  const type = context.schema.getType(owner.typeName);
  if (!(type instanceof GraphQLObjectType)) return {};
  const definition = type.getFields()[nodes[0].name.value];
  if (!definition) return {};
  let first: Record<string, unknown> | undefined;
  let firstKey = '';
  for (const node of nodes) {
    const args = getArgumentValues(definition, node, context.variables) as Record<string, unknown>;
    const key = JSON.stringify(args);
    if (first === undefined) {
      first = args;
      firstKey = key;
    } else if (key !== firstKey) return null;
  }
  return first ?? {};
}

function sameNodes(left: readonly FieldNode[], right: readonly FieldNode[]): boolean {
  return left.length === right.length && left.every((node, index) => node === right[index]);
}

/** Whether an argument anywhere under these selections (fragments followed) holds a variable. */
function reachesVariables(sets: readonly SelectionSetNode[], fragments: Record<string, FragmentDefinitionNode>, seen: Set<string>): boolean {
  for (const set of sets) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.arguments?.some((argument) => holdsVariable(argument.value))) return true;
        if (selection.selectionSet && reachesVariables([selection.selectionSet], fragments, seen)) return true;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (reachesVariables([selection.selectionSet], fragments, seen)) return true;
      } else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments[selection.name.value];
        if (fragment && reachesVariables([fragment.selectionSet], fragments, seen)) return true;
      }
    }
  }
  return false;
}

function selectionSets(nodes: readonly FieldNode[]): SelectionSetNode[] {
  return nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
}

/** Fields by name (not alias) across the sets, fragments flattened. */
function collect(sets: SelectionSetNode[], context: SelectionContext, into = new Map<string, FieldNode[]>(), seen = new Set<string>()): Map<string, FieldNode[]> {
  for (const set of sets) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        if (name.startsWith('__')) continue;
        const list = into.get(name);
        if (list) list.push(selection);
        else into.set(name, [selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect([selection.selectionSet], context, into, seen);
      } else {
        const name = selection.name.value;
        const fragment = context.fragments[name];
        if (!fragment || seen.has(name)) continue;
        seen.add(name);
        collect([fragment.selectionSet], context, into, seen);
      }
    }
  }
  return into;
}

/** A union's selections grouped by the member type their fragment names. */
function byTypeCondition(sets: SelectionSetNode[], context: SelectionContext): Map<string, SelectionSetNode[]> {
  const groups = new Map<string, SelectionSetNode[]>();
  const add = (typeName: string | undefined, set: SelectionSetNode) => {
    if (!typeName) return;
    groups.set(typeName, [...(groups.get(typeName) ?? []), set]);
  };
  for (const set of sets) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) add(selection.typeCondition?.name.value, selection.selectionSet);
      else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = context.fragments[selection.name.value];
        if (fragment) add(fragment.typeCondition.name.value, fragment.selectionSet);
      }
    }
  }
  return groups;
}
