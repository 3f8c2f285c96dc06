/**
 * Misspelt schema keys. Strapi v4 ignores keys it does not know, so
 * `"requird": true` silently makes nothing required. A key that is one
 * typo away from a key Strapi knows at that place stops the boot with a
 * "did you mean"; any other unknown key is left alone, since plugins and
 * older schema files carry keys of their own.
 */
import { closest } from '@tessera/errors';

const SCHEMA_KEYS = ['kind', 'collectionName', 'info', 'options', 'pluginOptions', 'attributes', 'config'];
const INFO_KEYS = ['singularName', 'pluralName', 'displayName', 'name', 'description', 'icon', 'collectionName'];
const OPTION_KEYS = ['draftAndPublish', 'timestamps', 'privateAttributes', 'populateCreatorFields', 'comment'];
const ATTRIBUTE_KEYS = [
  'type', 'required', 'unique', 'private', 'configurable', 'writable', 'visible', 'default', 'min', 'max', 'minLength',
  'maxLength', 'regex', 'enum', 'enumName', 'targetField', 'options', 'customField', 'pluginOptions', 'relation', 'target',
  'inversedBy', 'mappedBy', 'morphBy', 'useJoinTable', 'joinTable', 'component', 'repeatable', 'components', 'multiple',
  'allowedTypes', 'column', 'index', 'searchable',
];

export type KeyPlace = 'schema' | 'info' | 'options' | 'attribute';

const KNOWN: Record<KeyPlace, readonly string[]> = { schema: SCHEMA_KEYS, info: INFO_KEYS, options: OPTION_KEYS, attribute: ATTRIBUTE_KEYS };

/** `"requird" is not a schema key: did you mean "required"?`, or undefined when every key is known or far from any. */
export function misspeltKey(object: Record<string, unknown>, place: KeyPlace): string | undefined {
  const known = KNOWN[place];
  for (const key of Object.keys(object)) {
    if (known.includes(key)) continue;
    const suggestion = closest(key, known);
    if (suggestion !== undefined) return `"${key}" is not ${place === 'attribute' ? 'an attribute option' : `a key of ${place === 'schema' ? 'a schema' : `"${place}"`}`}: did you mean "${suggestion}"?`;
  }
  return undefined;
}
