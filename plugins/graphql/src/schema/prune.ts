/**
 * Strapi v4 prunes its finished schema (`pruneSchema` of @graphql-tools/utils
 * 8, called by @strapi/plugin-graphql 4.26 after the extensions are merged):
 * a type is kept only when a client can reach it from Query, Mutation or
 * Subscription — through field types, field arguments, input fields, union
 * members, and the implementations of an interface some field returns. The
 * rest (the `Long` scalar of a model without big integers, the
 * `<Type>RelationResponseCollection` no relation returns, the input of an
 * operation that was disabled, an extension's unused type) is not in the
 * schema, so typed clients generating code from it see only what they can use.
 */
import {
  GraphQLInterfaceType,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLUnionType,
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isSpecifiedScalarType,
  isUnionType,
  type GraphQLNamedType,
} from 'graphql';

export function pruneSchema(schema: GraphQLSchema): GraphQLSchema {
  const reachable = reachableTypes(schema);
  const config = schema.toConfig();
  if (config.types.every((type) => reachable.has(type.name))) return schema;
  // The constructor collects what the roots reference; the implementations of returned interfaces are passed along.
  return new GraphQLSchema({ ...config, types: config.types.filter((type) => reachable.has(type.name)) });
}

/** Names of the types reachable from the root types, plus the built-in scalars (never pruned, as in Strapi). */
export function reachableTypes(schema: GraphQLSchema): Set<string> {
  const reachable = new Set<string>();
  const queue: GraphQLNamedType[] = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(
    (type): type is GraphQLObjectType => type !== null && type !== undefined,
  );
  const visit = (type: GraphQLNamedType) => {
    if (!reachable.has(type.name)) queue.push(type);
  };
  while (queue.length > 0) {
    const type = queue.pop()!;
    if (reachable.has(type.name)) continue;
    reachable.add(type.name);
    if (isUnionType(type)) (type as GraphQLUnionType).getTypes().forEach(visit);
    if (isObjectType(type) || isInterfaceType(type)) {
      const composite = type as GraphQLObjectType | GraphQLInterfaceType;
      composite.getInterfaces().forEach(visit);
      for (const field of Object.values(composite.getFields())) {
        const named = getNamedType(field.type);
        visit(named);
        for (const argument of field.args) visit(getNamedType(argument.type));
        // A field returning an interface can answer any implementation: clients select them by `__typename`.
        if (isInterfaceType(named)) schema.getPossibleTypes(named).forEach(visit);
      }
    }
    if (isInputObjectType(type)) for (const field of Object.values(type.getFields())) visit(getNamedType(field.type));
  }
  for (const type of Object.values(schema.getTypeMap())) if (isSpecifiedScalarType(type) || type.name.startsWith('__')) reachable.add(type.name);
  return reachable;
}
