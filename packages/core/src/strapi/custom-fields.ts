/**
 * `strapi.customFields`: Strapi v4.4+'s custom fields. A plugin registers
 * `{ name, plugin, type, inputSize }` (server side only the underlying
 * `type` matters); a schema attribute `{ "type": "customField",
 * "customField": "plugin::color-picker.color" }` is stored and validated as
 * that type. Resolution runs once, after every `register` and before the
 * model is validated and the tables synced, as Strapi does it.
 */
import { ConfigurationError } from '@tessera/errors';
import type { Attribute, Component, ContentType } from '@tessera/database';
import { validateAttribute } from '../loader/validate-schema';

/** The types a custom field may stand on (Strapi's list). */
const ALLOWED_TYPES = new Set(['biginteger', 'boolean', 'date', 'datetime', 'decimal', 'email', 'enumeration', 'float', 'integer', 'json', 'password', 'richtext', 'string', 'text', 'time', 'uid']);

export interface CustomField {
  name: string;
  plugin?: string;
  type: string;
  inputSize?: { default: 4 | 6 | 8 | 12; isResizable: boolean };
  [key: string]: unknown;
}

export class CustomFields {
  private readonly fields = new Map<string, CustomField>();

  /** `isPluginEnabled(name)`: a field of a plugin that is not enabled is registered as `global::<name>`, as in Strapi. */
  constructor(private readonly isPluginEnabled: (name: string) => boolean) {}

  register(customField: CustomField | CustomField[]): void {
    for (const field of Array.isArray(customField) ? customField : [customField]) this.add(field);
  }

  get(uid: string): CustomField {
    const field = this.fields.get(uid);
    if (!field) throw new ConfigurationError(`Could not find Custom Field: ${uid}`);
    return field;
  }

  has(uid: string): boolean {
    return this.fields.has(uid);
  }

  getAll(): Record<string, CustomField> {
    return Object.fromEntries(this.fields);
  }

  /** Every `customField` attribute becomes its registered type; an unknown one is a boot error naming it and where it is used. */
  resolveAttributes(contentTypes: ContentType[], components: Component[]): void {
    for (const owner of [...contentTypes, ...components]) {
      for (const [name, attribute] of Object.entries(owner.attributes) as Array<[string, Attribute & { customField?: unknown }]>) {
        if ((attribute.type as string) !== 'customField') continue;
        const uid = String(attribute.customField);
        const field = this.fields.get(uid);
        if (!field) {
          throw new ConfigurationError(`attribute "${name}" uses the custom field "${uid}", which no enabled plugin registers (strapi.customFields.register)`, owner.source);
        }
        (attribute as { type: string }).type = field.type;
        // Its options (enum, default, min/max, …) are now checked as the underlying type's.
        validateAttribute(name, attribute, owner.attributes as Record<string, unknown>, owner.source ?? owner.uid);
      }
    }
  }

  private add(field: CustomField): void {
    if (!field || typeof field !== 'object' || !('name' in field) || !('type' in field)) throw new ConfigurationError("Custom fields require a 'name' and 'type' key");
    if (!ALLOWED_TYPES.has(field.type)) throw new ConfigurationError(`Custom field type: '${field.type}' is not a valid Strapi type or it can't be used with a Custom Field`);
    if (typeof field.name !== 'string' || !/^(?![0-9])[a-zA-Z0-9$_-]+$/.test(field.name)) throw new ConfigurationError(`Custom field name: '${String(field.name)}' is not a valid object key`);
    if (field.inputSize !== undefined) validateInputSize(field.inputSize);
    const uid = field.plugin && this.isPluginEnabled(field.plugin) ? `plugin::${field.plugin}.${field.name}` : `global::${field.name}`;
    if (this.fields.has(uid)) throw new ConfigurationError(`Custom field: '${uid}' has already been registered`);
    this.fields.set(uid, field);
  }
}

function validateInputSize(inputSize: unknown): void {
  const size = inputSize as Record<string, unknown>;
  if (typeof size !== 'object' || size === null || !('default' in size) || !('isResizable' in size)) {
    throw new ConfigurationError("inputSize should be an object with 'default' and 'isResizable' keys");
  }
  if (![4, 6, 8, 12].includes(size.default as number)) throw new ConfigurationError('Custom fields require a valid default input size');
  if (typeof size.isResizable !== 'boolean') throw new ConfigurationError('Custom fields should specify if their input is resizable');
}
