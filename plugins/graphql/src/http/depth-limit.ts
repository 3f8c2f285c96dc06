/**
 * The operation depth limit, with graphql-depth-limit@1.1.0's answers (what Strapi 4.26.2 runs): an error
 * `'<operation name>' exceeds maximum operation depth of <max>` at each node the walk reaches past the limit,
 * in the same order, introspection fields (`__…`) not descended into, fragment spreads adding no depth.
 *
 * graphql-depth-limit walks every fragment spread in full, so a document of fragments that each spread the
 * previous one twice costs 2^n steps: 30 fragments (1.6 KB) held the process for minutes. Here each node's
 * reach (how far below it the walk can go) is computed once per document, and the walk only enters a node
 * whose reach passes the limit, where it reports an error: at most graphql-js's 100, then validation stops.
 */
import { GraphQLError, Kind, type ASTNode, type FragmentDefinitionNode, type SelectionNode, type ValidationContext, type ValidationRule } from 'graphql';

type DepthNode = SelectionNode | FragmentDefinitionNode | Extract<ASTNode, { kind: Kind.OPERATION_DEFINITION }>;

export function depthLimit(maxDepth: number): ValidationRule {
  return (context: ValidationContext) => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    const reaches = new Map<DepthNode, number>();
    /** The deepest level below `node` the walk reaches (0: the node alone). Validation has refused fragment cycles already. */
    const reach = (node: DepthNode): number => {
      let known = reaches.get(node);
      if (known !== undefined) return known;
      known = 0;
      for (const [child, step] of children(node, fragments)) known = Math.max(known, step + reach(child));
      reaches.set(node, known);
      return known;
    };
    const walk = (node: DepthNode, depth: number, operation: string): void => {
      if (depth > maxDepth) {
        context.reportError(new GraphQLError(`'${operation}' exceeds maximum operation depth of ${maxDepth}`, { nodes: [node] }));
        return;
      }
      if (depth + reach(node) <= maxDepth) return;
      for (const [child, step] of children(node, fragments)) walk(child, depth + step, operation);
    };
    return {
      // On entering the document, not when the rule is made: graphql-js stops validation after 100 errors by
      // throwing from reportError, and catches that only while visiting (thrown earlier, it was a 500).
      Document(document) {
        // graphql-depth-limit keys operations by name: with two of one name (a document validation refused), the last.
        const operations = new Map<string, DepthNode>();
        for (const definition of document.definitions) {
          if (definition.kind === Kind.OPERATION_DEFINITION) operations.set(definition.name?.value ?? '', definition);
        }
        for (const [name, operation] of operations) walk(operation, 0, name);
      },
    };
  };
}

/** The nodes the walk visits under `node`, each with the depth it adds: a field's selections are one level down. */
function children(node: DepthNode, fragments: Map<string, FragmentDefinitionNode>): Array<[DepthNode, number]> {
  switch (node.kind) {
    case Kind.FIELD:
      if (node.name.value.startsWith('__') || !node.selectionSet) return [];
      return node.selectionSet.selections.map((selection) => [selection, 1]);
    case Kind.FRAGMENT_SPREAD: {
      const fragment = fragments.get(node.name.value);
      return fragment ? [[fragment, 0]] : [];
    }
    default:
      return node.selectionSet.selections.map((selection) => [selection, 0]);
  }
}
