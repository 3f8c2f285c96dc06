/**
 * Limits checked before a document runs, each a 400 naming the limit:
 * depth (graphql-depth-limit, as Strapi runs it, bounded: see boundedDepthLimit), aliases and fields per operation
 * (fragments counted where they are spread), and introspection when it is off. The
 * document size and batch size are checked by the endpoint before parsing.
 * These rules run only after GraphQL's own validation passed, so cyclic
 * fragments (rejected there) never reach the recursive counters.
 */
import {
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/** What graphql-depth-limit's rule uses of the validation context (the package ships no types). */
interface DepthLimitContext {
  getDocument(): DocumentNode;
  reportError(error: GraphQLError): void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const graphqlDepthLimit = require('graphql-depth-limit') as (maxDepth: number) => (context: DepthLimitContext) => unknown;

export interface LimitConfig {
  depthLimit: number;
  maxAliases: number;
  maxFields: number;
  introspection: boolean;
}

export function limitRules(config: LimitConfig): ValidationRule[] {
  const counts = selectionCounter(config.maxFields);
  const rules: ValidationRule[] = [boundedDepthLimit(config.depthLimit, config.maxFields, counts), selectionLimits(config.maxAliases, config.maxFields, counts)];
  if (!config.introspection) rules.push(NoSchemaIntrospectionCustomRule);
  return rules;
}

interface Counts {
  aliases: number;
  fields: number;
}

/** Each operation's counts, with every fragment spread counted in full, made once per document for both rules. */
type SelectionCounter = (document: DocumentNode) => Map<OperationDefinitionNode, Counts>;

/** Counting stops past maxFields (aliases are fields too), so a document of fragments spread many times costs little. */
function selectionCounter(maxFields: number): SelectionCounter {
  const counted = new WeakMap<DocumentNode, Map<OperationDefinitionNode, Counts>>();
  return (document) => {
    let byOperation = counted.get(document);
    if (byOperation) return byOperation;
    byOperation = new Map();
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      const counts: Counts = { aliases: 0, fields: 0 };
      count(definition.selectionSet, fragments, counts, () => counts.fields > maxFields);
      byOperation.set(definition, counts);
    }
    counted.set(document, byOperation);
    return byOperation;
  };
}

/**
 * graphql-depth-limit, safe for any document. Its walk follows every fragment spread in full, so fragments that
 * each spread the one before twice cost 2^n steps (30 of them, 1.6 KB, held the process for minutes): it runs only
 * on documents whose operations select at most maxFields fields with every spread counted (selectionLimits refuses
 * the others), where its walk is bounded too. It walks when the rule is made, and graphql-js stops validating
 * after 100 errors by throwing from reportError, which it catches only while visiting (thrown earlier, it was a
 * 500): so its errors are gathered, and reported on entering the document.
 */
function boundedDepthLimit(maxDepth: number, maxFields: number, countsOf: SelectionCounter): ValidationRule {
  const rule = graphqlDepthLimit(maxDepth);
  return (context: ValidationContext): ASTVisitor => ({
    Document(document) {
      for (const counts of countsOf(document).values()) if (counts.fields > maxFields) return;
      const errors: GraphQLError[] = [];
      rule({ getDocument: () => document, reportError: (error) => errors.push(error) });
      for (const error of errors) context.reportError(error);
    },
  });
}

/** Aliases and fields of each operation, each past its limit a 400. */
function selectionLimits(maxAliases: number, maxFields: number, countsOf: SelectionCounter): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const byOperation = countsOf(context.getDocument());
    return {
      OperationDefinition(operation) {
        const counts = byOperation.get(operation);
        if (!counts) return;
        const name = operation.name ? `'${operation.name.value}'` : 'The operation';
        if (counts.aliases > maxAliases) context.reportError(new GraphQLError(`${name} uses more than ${maxAliases} aliases`, { nodes: [operation] }));
        if (counts.fields > maxFields) context.reportError(new GraphQLError(`${name} selects more than ${maxFields} fields`, { nodes: [operation] }));
      },
    };
  };
}

/** Stops as soon as `limitReached` says so. */
function count(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, counts: Counts, limitReached: () => boolean): void {
  for (const selection of set.selections) {
    if (limitReached()) return;
    if (selection.kind === Kind.FIELD) {
      counts.fields += 1;
      if (selection.alias) counts.aliases += 1;
      if (selection.selectionSet) count(selection.selectionSet, fragments, counts, limitReached);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      count(selection.selectionSet, fragments, counts, limitReached);
    } else {
      const fragment = fragments.get(selection.name.value);
      if (fragment) count(fragment.selectionSet, fragments, counts, limitReached);
    }
  }
}
