/**
 * A query operation compiled once against the schema: which fields each
 * object of the answer has (graphql-js's field collection, done once per
 * document instead of once per object per request), each field's definition
 * and how its value is completed. The endpoint caches parsed documents, so
 * a plan serves every later request with the same document; per request
 * remain the variables and the arguments that use them. plan-run.ts
 * executes it.
 *
 * Only what can be collected without the request is planned: a query whose
 * selections carry no directives (`@skip`/`@include` depend on variables),
 * reach no union or interface (the object type is known only at run time)
 * and ask for no introspection but `__typename`. Anything else returns no
 * plan and runs on graphql-js's own `execute`.
 */
import {
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  typeFromAST,
  TypeNameMetaFieldDef,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLLeafType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type InlineFragmentNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { isSourceOnly } from './source-only';

/** How a resolved value becomes its answer (the field's type, unwrapped once at planning). */
export type Completion =
  | { kind: 'nonNull'; of: Completion }
  | { kind: 'list'; of: Completion }
  | { kind: 'leaf'; type: GraphQLLeafType }
  | { kind: 'object'; fields: FieldPlan[] };

/** A field whose value is a scalar or enum (possibly non-null): the executor's shortest path. */
export interface LeafPlan {
  type: GraphQLLeafType;
  nonNull: boolean;
}

export interface FieldPlan {
  responseName: string;
  fieldName: string;
  /** Every node merged under the response name (what `info.fieldNodes` holds). */
  nodes: FieldNode[];
  definition: GraphQLField<unknown, unknown>;
  parentType: GraphQLObjectType;
  /** The field declares arguments: they are coerced per request (variables, defaults). */
  hasArguments: boolean;
  /** Its arguments hold no variable: the same values on every request (literal-arguments.ts). */
  literalArguments: boolean;
  /** `__typename`: the parent type's name, known at planning. */
  typename?: string;
  completion: Completion;
  /** Set for a scalar field without arguments (not `__typename`): read off the parent when it has no resolver. */
  leaf?: LeafPlan;
  /** The field's resolver when it reads only its parent (source-only.ts): called with the parent alone while it is still the field's. */
  sourceOnly?: (source: unknown) => unknown;
}

export interface OperationPlan {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  /** The document's fragments, as graphql-js hands them to resolvers (`info.fragments`). */
  fragments: Record<string, FragmentDefinitionNode>;
  rootType: GraphQLObjectType;
  fields: FieldPlan[];
}

/** Thrown inside the planner when the operation needs graphql-js's run-time collection. */
class NotPlannable extends Error {}

export function planOperation(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): OperationPlan | undefined {
  const rootType = schema.getQueryType();
  if (operation.operation !== 'query' || !rootType) return undefined;
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null);
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  try {
    const fields = new Planner(schema, fragments).fieldsOf(rootType, [operation.selectionSet]);
    return { schema, operation, fragments, rootType, fields };
  } catch (error) {
    if (error instanceof NotPlannable) return undefined;
    throw error;
  }
}

class Planner {
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Record<string, FragmentDefinitionNode>,
  ) {}

  /** graphql-js's collectSubfields: fields by response name, in order, fragments spread once. */
  fieldsOf(type: GraphQLObjectType, sets: SelectionSetNode[]): FieldPlan[] {
    // isTypeOf is a run-time check on every value: left to graphql-js.
    if (type.isTypeOf) throw new NotPlannable();
    const grouped = new Map<string, FieldNode[]>();
    const visited = new Set<string>();
    for (const set of sets) this.collect(type, set, grouped, visited);
    const plans: FieldPlan[] = [];
    for (const [responseName, nodes] of grouped) {
      const plan = this.field(type, responseName, nodes);
      if (plan) plans.push(plan);
    }
    return plans;
  }

  private collect(type: GraphQLObjectType, set: SelectionSetNode, grouped: Map<string, FieldNode[]>, visited: Set<string>): void {
    for (const selection of set.selections) {
      if (selection.directives && selection.directives.length > 0) throw new NotPlannable();
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const nodes = grouped.get(key);
        if (nodes) nodes.push(selection);
        else grouped.set(key, [selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (this.conditionMatches(selection, type)) this.collect(type, selection.selectionSet, grouped, visited);
      } else {
        const name = selection.name.value;
        if (visited.has(name)) continue;
        visited.add(name);
        const fragment = this.fragments[name];
        if (fragment && this.conditionMatches(fragment, type)) this.collect(type, fragment.selectionSet, grouped, visited);
      }
    }
  }

  /** graphql-js's doesFragmentConditionMatch, with the object type known. */
  private conditionMatches(fragment: InlineFragmentNode | FragmentDefinitionNode, type: GraphQLObjectType): boolean {
    if (!fragment.typeCondition) return true;
    const condition = typeFromAST(this.schema, fragment.typeCondition);
    if (condition === type) return true;
    return condition !== undefined && isAbstractType(condition) && this.schema.isSubType(condition, type);
  }

  private field(parentType: GraphQLObjectType, responseName: string, nodes: FieldNode[]): FieldPlan | undefined {
    const fieldName = nodes[0].name.value;
    if (fieldName === TypeNameMetaFieldDef.name) {
      const definition = TypeNameMetaFieldDef as GraphQLField<unknown, unknown>;
      const completion = this.completion(definition.type, nodes);
      return { responseName, fieldName, nodes, definition, parentType, hasArguments: false, literalArguments: false, typename: parentType.name, completion };
    }
    // __schema and __type: introspection stays with graphql-js.
    if (fieldName.startsWith('__')) throw new NotPlannable();
    const definition = parentType.getFields()[fieldName];
    // As graphql-js: a field the type does not have is left out (validation rejects it first anyway).
    if (!definition) return undefined;
    const completion = this.completion(definition.type, nodes);
    const hasArguments = definition.args.length > 0;
    const sourceResolver = isSourceOnly(definition.resolve) ? definition.resolve : undefined;
    const literalArguments = hasArguments && !(nodes[0].arguments ?? []).some((argument) => holdsVariable(argument.value));
    const leaf = hasArguments ? undefined : leafOf(completion);
    return { responseName, fieldName, nodes, definition, parentType, hasArguments, literalArguments, completion, leaf, sourceOnly: sourceResolver };
  }

  private completion(type: GraphQLOutputType, nodes: FieldNode[]): Completion {
    if (isNonNullType(type)) return { kind: 'nonNull', of: this.completion(type.ofType, nodes) };
    if (isListType(type)) return { kind: 'list', of: this.completion(type.ofType, nodes) };
    if (isLeafType(type)) return { kind: 'leaf', type };
    if (isObjectType(type)) return { kind: 'object', fields: this.fieldsOf(type, selectionSets(nodes)) };
    throw new NotPlannable();
  }
}

/** Whether an argument value is, or holds, a variable. */
export function holdsVariable(value: ValueNode): boolean {
  if (value.kind === Kind.VARIABLE) return true;
  if (value.kind === Kind.LIST) return value.values.some(holdsVariable);
  if (value.kind === Kind.OBJECT) return value.fields.some((field) => holdsVariable(field.value));
  return false;
}

function leafOf(completion: Completion): LeafPlan | undefined {
  if (completion.kind === 'leaf') return { type: completion.type, nonNull: false };
  if (completion.kind === 'nonNull' && completion.of.kind === 'leaf') return { type: completion.of.type, nonNull: true };
  return undefined;
}

function selectionSets(nodes: FieldNode[]): SelectionSetNode[] {
  const sets: SelectionSetNode[] = [];
  for (const node of nodes) if (node.selectionSet) sets.push(node.selectionSet);
  return sets;
}
