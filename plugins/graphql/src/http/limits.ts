/**
 * Limits checked before a document runs, each a 400 naming the limit:
 * depth (depth-limit.ts: graphql-depth-limit's answers, in linear time), aliases and fields per operation (fragments
 * counted where they are spread), and introspection when it is off. The
 * document size and batch size are checked by the endpoint before parsing.
 * These rules run only after GraphQL's own validation passed, so cyclic
 * fragments (rejected there) never reach the recursive counters.
 */
import {
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { depthLimit } from './depth-limit';

export interface LimitConfig {
  depthLimit: number;
  maxAliases: number;
  maxFields: number;
  introspection: boolean;
}

export function limitRules(config: LimitConfig): ValidationRule[] {
  const rules: ValidationRule[] = [depthLimit(config.depthLimit), selectionLimits(config.maxAliases, config.maxFields)];
  if (!config.introspection) rules.push(NoSchemaIntrospectionCustomRule);
  return rules;
}

interface Counts {
  aliases: number;
  fields: number;
}

/** Aliases and fields of each operation, with every fragment spread counted in full. */
function selectionLimits(maxAliases: number, maxFields: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    return {
      OperationDefinition(operation) {
        const counts: Counts = { aliases: 0, fields: 0 };
        const limitReached = () => counts.aliases > maxAliases || counts.fields > maxFields;
        count(operation.selectionSet, fragments, counts, limitReached);
        const name = operation.name ? `'${operation.name.value}'` : 'The operation';
        if (counts.aliases > maxAliases) context.reportError(new GraphQLError(`${name} uses more than ${maxAliases} aliases`, { nodes: [operation] }));
        if (counts.fields > maxFields) context.reportError(new GraphQLError(`${name} selects more than ${maxFields} fields`, { nodes: [operation] }));
      },
    };
  };
}

/** Stops as soon as a limit is passed, so a document of fragments spread many times costs little to reject. */
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
