/**
 * How deep a request's variables nest through the schema's input types.
 *
 * GraphQL coerces a variable recursively, a few stack frames per level of
 * input objects and lists: `{ "and": [{ "and": [ … ] }] }` a thousand levels
 * deep overflows the stack, and graphql-js hands the RangeError back as a
 * request error. The document itself is bounded (its size and token count),
 * but variables are plain JSON of any depth. So before execution each
 * variable is walked along its declared type, and a value deeper than
 * MAX_INPUT_DEPTH is refused with a 400 naming it.
 *
 * Only input objects and lists count: a scalar's value (the JSON scalar of a
 * `json` attribute) is not coerced level by level, and its own validation
 * bounds its depth. The walk stops at the limit, so its own recursion is
 * bounded too. Legitimate inputs stay far below: filters are refused past 12
 * nested operators anyway (two levels each, an object and its list), and a
 * `data` input nests only as deep as its components.
 */
import {
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';

export const MAX_INPUT_DEPTH = 64;

/** The first variable nested deeper than MAX_INPUT_DEPTH, or undefined when all fit. */
export function tooDeepVariable(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): string | undefined {
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type);
    // An unknown type fails validation before this runs; a variable not sent has nothing to walk.
    if (!type || !isInputType(type) || !(name in variables)) continue;
    if (exceeds(variables[name], type, 0)) return name;
  }
  return undefined;
}

function exceeds(value: unknown, type: GraphQLInputType, depth: number): boolean {
  if (depth > MAX_INPUT_DEPTH) return true;
  if (value === null || typeof value !== 'object') return false;
  if (isNonNullType(type)) return exceeds(value, type.ofType, depth);
  if (isListType(type)) {
    // A single value where a list is declared is coerced as a list of one, at the same depth.
    if (!Array.isArray(value)) return exceeds(value, type.ofType, depth);
    return value.some((item) => exceeds(item, type.ofType, depth + 1));
  }
  if (!isInputObjectType(type) || Array.isArray(value)) return false;
  const fields = type.getFields();
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = fields[key];
    if (field && exceeds(record[key], field.type, depth + 1)) return true;
  }
  return false;
}
