/**
 * Extension typos caught at boot. nexus's `extendType({ type: 'Prodcut' })`
 * quietly creates a new type `Prodcut`, and `shadowCRUD('api::prodcut.prodcut')`
 * quietly switches off nothing: both would boot and leave the developer
 * wondering. Each is refused, naming the target and the closest real one.
 * An `extendType` whose name is close to no type is no typo: published
 * plugins extend a type only they use (strapi-plugin-fuzzy-search's
 * `SearchResponse`), which nexus creates, on Strapi as here; it is logged.
 */
import { core } from 'nexus';
import { closest, ConfigurationError } from '@tessera/errors';
import type { App } from '@tessera/core';

/**
 * Throws when an `extendType`/`extendInputType` names a type that neither the generated schema nor an extension
 * defines and that is one typo away from one that does; warns when it is close to none (nexus then creates it).
 */
export function checkExtendedTypes(generatedNames: Iterable<string>, extensionTypes: unknown[], warn: (message: string) => void): void {
  const defined = new Set(generatedNames);
  for (const type of extensionTypes) {
    if (isExtension(type)) continue;
    const name = (type as { name?: unknown }).name;
    if (typeof name === 'string') defined.add(name);
  }
  const created = new Set<string>();
  for (const type of extensionTypes) {
    if (!isExtension(type) || defined.has(type.name) || created.has(type.name)) continue;
    const kind = type instanceof core.NexusExtendInputTypeDef ? 'extendInputType' : 'extendType';
    const nearest = closest(type.name, defined);
    if (nearest !== undefined) throw new ConfigurationError(`graphql extension: ${kind}({ type: "${type.name}" }) names no type of the schema (did you mean "${nearest}"?)`);
    created.add(type.name);
    warn(`graphql extension: ${kind}({ type: "${type.name}" }) names no type of the schema: it is created with the fields extensions give it, as on Strapi`);
  }
}

/** Throws when `shadowCRUD(uid)` names neither a content type nor a component. */
export function checkShadowCrudTargets(app: App, uids: Iterable<string>): void {
  for (const uid of uids) {
    if (app.contentTypes.has(uid) || app.components.has(uid)) continue;
    const known = [...app.contentTypes.keys(), ...app.components.keys()];
    throw new ConfigurationError(`graphql extension: shadowCRUD("${uid}") names no content type or component${suggestion(uid, known)}`);
  }
}

function isExtension(type: unknown): type is core.NexusExtendTypeDef<string> | core.NexusExtendInputTypeDef<string> {
  return type instanceof core.NexusExtendTypeDef || type instanceof core.NexusExtendInputTypeDef;
}

function suggestion(name: string, known: Iterable<string>): string {
  const nearest = closest(name, known);
  return nearest === undefined ? '' : ` (did you mean "${nearest}"?)`;
}
