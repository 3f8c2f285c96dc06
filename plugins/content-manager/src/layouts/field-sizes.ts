/**
 * How wide each kind of field is in the edit view's 12-column grid (Strapi 4.26.2's `field-sizes` service):
 * `/content-manager/init` answers this table, default layouts place fields by it, and a stored layout whose size a
 * type may not take is re-placed at its default.
 */
export interface FieldSize {
  default: number;
  isResizable: boolean;
}

const FULL: FieldSize = { default: 12, isResizable: false };
const SMALL: FieldSize = { default: 4, isResizable: true };
const MEDIUM: FieldSize = { default: 6, isResizable: true };

export const FIELD_SIZES: Readonly<Record<string, FieldSize>> = {
  dynamiczone: FULL,
  component: FULL,
  json: FULL,
  richtext: FULL,
  blocks: FULL,
  checkbox: SMALL,
  boolean: SMALL,
  date: SMALL,
  time: SMALL,
  biginteger: SMALL,
  decimal: SMALL,
  float: SMALL,
  integer: SMALL,
  number: SMALL,
  datetime: MEDIUM,
  email: MEDIUM,
  enumeration: MEDIUM,
  media: MEDIUM,
  password: MEDIUM,
  relation: MEDIUM,
  string: MEDIUM,
  text: MEDIUM,
  timestamp: MEDIUM,
  uid: MEDIUM,
};

export const MAX_ROW_SIZE = 12;

/** A type Tessera's schema validation lets through has a size; an unknown one is placed full width rather than failing the boot. */
export function fieldSize(type: string): FieldSize {
  return FIELD_SIZES[type] ?? FULL;
}

export function isAllowedFieldSize(type: string, size: number): boolean {
  const allowed = fieldSize(type);
  if (!allowed.isResizable && size !== allowed.default) return false;
  return size <= MAX_ROW_SIZE;
}
