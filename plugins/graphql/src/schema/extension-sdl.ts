/**
 * The extensions' SDL `typeDefs` and `resolvers`, put on top of the generated schema.
 *
 * Strapi merges them with @graphql-tools' `mergeSchemas`, which prints the whole schema to a document, merges the
 * extensions' document into it and builds a new schema from the result, then puts every resolver back: on the
 * example app that was about 40 % of a boot's CPU. When the SDL only adds (new types, and `extend` of types that
 * exist, with fields, values or members they do not have yet: Tessera's own plugins' SDL, and most extensions'),
 * graphql's `extendSchema` gives the same types from the schema as built, and the resolvers are then added in
 * place. SDL that says a thing a second time (`type Query { … }` without `extend`, a field the type already has,
 * a `schema` block) takes Strapi's merge, which joins the two definitions.
 */
import {
  extendSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isTypeDefinitionNode,
  isTypeExtensionNode,
  isUnionType,
  Kind,
  parse,
  type DocumentNode,
  type GraphQLSchema,
  type TypeDefinitionNode,
  type TypeExtensionNode,
} from 'graphql';
import { addResolversToSchema, mergeSchemas } from '@graphql-tools/schema';

type Resolvers = Parameters<typeof addResolversToSchema>[0]['resolvers'];

export function withExtensionSdl(schema: GraphQLSchema, typeDefs: string, resolvers: Resolvers): GraphQLSchema {
  const sdl = typeDefs.trim();
  const document = sdl ? parsed(sdl) : undefined;
  if (sdl && (!document || !onlyAdds(schema, document))) return mergeSchemas({ schemas: [schema], typeDefs: sdl, resolvers });
  // extendSchema made new type objects: the resolvers may be set on them in place (no third copy of the schema).
  const extended = document ? extendSchema(schema, document) : schema;
  return addResolversToSchema({ schema: extended, resolvers, updateResolversInPlace: document !== undefined });
}

/** The document, or undefined when it does not parse (the merge then reports it as it always has). */
function parsed(sdl: string): DocumentNode | undefined {
  try {
    return parse(sdl, { noLocation: true });
  } catch {
    return undefined;
  }
}

/**
 * Whether every definition only adds to the schema: a new type or directive, or an extension of a type that exists
 * adding fields, values, members or interfaces it does not have. Directives on an extension, or a scalar's, are
 * joined to the type by the merge: those take it.
 */
function onlyAdds(schema: GraphQLSchema, document: DocumentNode): boolean {
  const members = new Map<string, Set<string>>();
  for (const definition of document.definitions) {
    if (isTypeDefinitionNode(definition)) {
      const name = definition.name.value;
      if (schema.getType(name) || members.has(name)) return false;
      members.set(name, new Set(memberNames(definition)));
    } else if (definition.kind === Kind.DIRECTIVE_DEFINITION) {
      if (schema.getDirective(definition.name.value)) return false;
    } else if (isTypeExtensionNode(definition)) {
      if (definition.kind === Kind.SCALAR_TYPE_EXTENSION || (definition.directives?.length ?? 0) > 0) return false;
      const name = definition.name.value;
      const known = members.get(name) ?? existingMembers(schema, name);
      if (!known) return false;
      members.set(name, known);
      for (const member of memberNames(definition)) {
        if (known.has(member)) return false;
        known.add(member);
      }
    } else {
      return false;
    }
  }
  return true;
}

/** What a definition or extension adds by name: fields, enum values, union members and interfaces (prefixed apart). */
function memberNames(node: TypeDefinitionNode | TypeExtensionNode): string[] {
  const names: string[] = [];
  if ('fields' in node) for (const field of node.fields ?? []) names.push(field.name.value);
  if ('values' in node) for (const value of node.values ?? []) names.push(value.name.value);
  if ('types' in node) for (const member of node.types ?? []) names.push(`|${member.name.value}`);
  if ('interfaces' in node) for (const implemented of node.interfaces ?? []) names.push(`&${implemented.name.value}`);
  return names;
}

/** The names a type of the schema already has (as memberNames counts them); undefined when there is no such type. */
function existingMembers(schema: GraphQLSchema, name: string): Set<string> | undefined {
  const type = schema.getType(name);
  if (!type) return undefined;
  const names = new Set<string>();
  if (isObjectType(type) || isInterfaceType(type)) {
    for (const field of Object.keys(type.getFields())) names.add(field);
    for (const implemented of type.getInterfaces()) names.add(`&${implemented.name}`);
  } else if (isInputObjectType(type)) {
    for (const field of Object.keys(type.getFields())) names.add(field);
  } else if (isEnumType(type)) {
    for (const value of type.getValues()) names.add(value.name);
  } else if (isUnionType(type)) {
    for (const member of type.getTypes()) names.add(`|${member.name}`);
  }
  return names;
}
