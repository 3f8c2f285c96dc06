/**
 * What differs between Strapi 4.26.2's model and Tessera's, stated once for every recorded-answer comparison:
 * - the types of Strapi's that Tessera does not run (transfer tokens, content releases) are left out of Strapi's lists;
 * - Strapi's own types (`admin::…`, `plugin::…`) are compared on what the panel reads of them in the model lists —
 *   uid, whether it is displayed, apiID, kind, info, and each attribute's name, type and relation target — not on
 *   each plugin's declaration details (`configurable`, `minLength`, `searchable`: the owning plugins' own matter);
 *   their generated configurations are compared whole.
 * The app's types and components are compared as recorded.
 */
export interface RecordedStep {
  title: string;
  method: string;
  path: string;
  body?: unknown;
  status: number;
  answer: unknown;
}

export const STRAPI_ONLY_TYPES = ['admin::transfer-token', 'admin::transfer-token-permission', 'plugin::content-releases.release', 'plugin::content-releases.release-action'];

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const isStrapiOwn = (uid: string) => uid.startsWith('admin::') || uid.startsWith('plugin::');
const ATTRIBUTE_KEYS = ['type', 'relation', 'target', 'targetModel', 'relationType', 'component', 'components'];

function pick(value: Json, keys: string[]): Json {
  return Object.fromEntries(keys.filter((key) => key in value).map((key) => [key, value[key]]));
}

/** A model list entry as compared: Strapi's own types on their panel-facing parts. */
function comparableModel(model: unknown): unknown {
  if (!isRecord(model) || !isStrapiOwn(String(model.uid))) return model;
  const attributes = isRecord(model.attributes) ? model.attributes : {};
  return {
    ...pick(model, ['uid', 'isDisplayed', 'apiID', 'kind', 'info']),
    attributes: Object.fromEntries(Object.entries(attributes).map(([name, attribute]) => [name, isRecord(attribute) ? pick(attribute, ATTRIBUTE_KEYS) : attribute])),
  };
}

const comparableList = (list: unknown, models: boolean) =>
  Array.isArray(list) ? list.filter((item) => !(isRecord(item) && STRAPI_ONLY_TYPES.includes(String(item.uid)))).map((item) => (models ? comparableModel(item) : item)) : list;

/** An answer as compared (`/init`, `/content-types` and `/content-types-settings` lists; every other answer as it is). */
export function comparable(path: string, answer: unknown): unknown {
  if (!isRecord(answer) || !path.startsWith('/content-manager/')) return answer;
  const data = answer.data;
  if (Array.isArray(data)) return { ...answer, data: comparableList(data, !path.startsWith('/content-manager/content-types-settings')) };
  if (isRecord(data) && Array.isArray(data.contentTypes)) return { ...answer, data: { ...data, contentTypes: comparableList(data.contentTypes, true) } };
  return answer;
}
