/**
 * The plugin's part of the GraphQL schema, when the GraphQL plugin is on,
 * contributed through that plugin's services only (`extension`, `utils`,
 * `selection`; never its code), as Strapi v4's i18n does:
 *   - the `I18NLocaleCode` scalar: a code of the ISO list, or `all`. The
 *     `locale` argument of the localized types' operations comes with the
 *     `locale` query parameter itself (locale-parameter.ts): shadow CRUD
 *     hands it to the same content-API operations as REST's `?locale=`;
 *   - `create<Type>Localization(id, data, locale)`, the operation of
 *     `POST /api/<plural>/:id/localizations`: same service, permission
 *     (`createLocalization`) and errors;
 *   - what Strapi's schema leaves out: mutations on locales (they change
 *     through the `locales` service), and `locale` / `localizations` in
 *     `<Type>Input` (the argument chooses the locale; groups are the plugin's).
 * Locales are read with the generated `i18NLocale(id)` / `i18NLocales`.
 */
import { Caller, type App } from '@tessera/core';
import { ValidationError } from '@tessera/errors';
import type { ContentType } from '@tessera/database';
import type { ExtensionConfig, ExtensionContext, GraphqlExtensionApi, GraphqlNaming, GraphqlResolver, TypeSettings } from '@tessera/plugin-graphql';
import { ALL_LOCALES, LOCALE_CODE_TYPE, LOCALE_UID } from './constants';
import { isoLocalesService } from './iso-locales';
import { LOCALE_ATTRIBUTE, LOCALIZATIONS_ATTRIBUTE } from './localized-types';

type Row = Record<string, unknown>;

export function registerGraphql(app: App, localizedTypes: ContentType[]): void {
  if (!app.plugins.has('graphql')) return;
  const extension = app.plugin('graphql')!.service('extension');
  leaveOutOfShadowCrud(extension, localizedTypes);
  // A function: switches set after this plugin's register still count when the schema is built.
  extension.use((context) => {
    const mutations = localizationMutations(app, extension, localizedTypes, context);
    const config: ExtensionConfig = { types: [localeCodeScalar(context)] };
    if (mutations.length === 0) return config;
    return {
      ...config,
      typeDefs: `extend type Mutation {\n${mutations.map((mutation) => `  ${mutation.field}`).join('\n')}\n}`,
      resolvers: { Mutation: Object.fromEntries(mutations.map((mutation) => [mutation.name, mutation.resolve])) },
      resolversConfig: Object.fromEntries(mutations.map((mutation) => [`Mutation.${mutation.name}`, { auth: { scope: [mutation.action] } }])),
    };
  });
}

/** Locales change through the `locales` service; an entry's locale and group are not a client's to write. */
function leaveOutOfShadowCrud(extension: GraphqlExtensionApi, localizedTypes: ContentType[]): void {
  extension.shadowCRUD(LOCALE_UID).disableMutations();
  for (const contentType of localizedTypes) {
    const settings = extension.shadowCRUD(contentType.uid);
    settings.field(LOCALE_ATTRIBUTE).disableInput();
    settings.field(LOCALIZATIONS_ATTRIBUTE).disableInput();
  }
}

/** One `create<Type>Localization` per localized collection type whose generated types exist (shadow CRUD on, type enabled). */
function localizationMutations(app: App, extension: GraphqlExtensionApi, localizedTypes: ContentType[], context: ExtensionContext) {
  const naming = app.plugin('graphql')!.service('utils').naming;
  return localizedTypes
    .filter((contentType) => contentType.kind === 'collectionType' && localizationEnabled(extension.shadowCRUD(contentType.uid)))
    .map((contentType) => localizationMutation(app, contentType, naming))
    .filter((mutation) => mutation.types.every((name) => context.typeRegistry.has(name)));
}

/** `disableMutations()` or `disableAction('createLocalization')` leave the operation out. */
function localizationEnabled(settings: TypeSettings): boolean {
  return settings.isActionEnabled('create') && settings.isActionEnabled('createLocalization');
}

/** `createPageLocalization(data: PageInput, id: ID, locale: I18NLocaleCode): PageEntityResponse`. */
function localizationMutation(app: App, contentType: ContentType, naming: GraphqlNaming) {
  const uid = contentType.uid;
  const name = `create${naming.getTypeName(contentType)}Localization`;
  const input = naming.getContentTypeInputName(contentType);
  const response = naming.getEntityResponseName(contentType);
  const resolve: GraphqlResolver = async (_parent, args, context, info) => {
    const body = { ...inputData(args.data), [LOCALE_ATTRIBUTE]: args.locale ?? undefined };
    // The answer is loaded as the selection asks (one read), not as REST's default populate.
    const params = app.plugin('graphql')!.service('selection').readParams(uid, info);
    const localizations = app.plugin('i18n')!.service('localizations');
    return { data: await localizations.createLocalization(uid, args.id, body, Caller.of(context.state.auth), params) };
  };
  return {
    name,
    field: `${name}(id: ID, data: ${input}, locale: ${LOCALE_CODE_TYPE}): ${response}`,
    types: [input, response],
    action: `${uid}.createLocalization`,
    resolve,
  };
}

/**
 * A locale code argument: a code of the ISO list the plugin ships, or `all`
 * (which reads every locale). Anything else is refused before the operation
 * runs: a literal fails validation, a variable the request (both a 400).
 */
function localeCodeScalar({ nexus }: ExtensionContext): unknown {
  const iso = isoLocalesService();
  const check = (value: unknown): string => {
    if (typeof value !== 'string') throw new ValidationError('A locale code is a string');
    if (value !== ALL_LOCALES && !iso.findIsoLocale(value)) throw new ValidationError(`${JSON.stringify(value.slice(0, 50))} is not a locale code`);
    return value;
  };
  return nexus.scalarType({
    name: LOCALE_CODE_TYPE,
    description: 'A string used to identify an i18n locale',
    serialize: (value) => value,
    parseValue: check,
    parseLiteral: (ast) => check(ast.kind === 'StringValue' ? ast.value : undefined),
  });
}

/** A mutation's `data` as a write takes it: plain objects (GraphQL's have no prototype), without the server's timestamps. */
function inputData(data: unknown): Row {
  if (!isRecord(data)) return {};
  const { createdAt: _createdAt, updatedAt: _updatedAt, ...rest } = plain(data) as Row;
  return rest;
}

function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
}

function isRecord(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
