/**
 * Writes TypeScript type expressions the way Strapi v4's generated files
 * show them (its generator prints with TypeScript and formats with prettier:
 * single quotes, two spaces, 80 columns). Only the few shapes those files
 * use are laid out here, so a diff against a Strapi-made file stays small.
 */

const WIDTH = 80;

/** A literal written into a type: `'x'`, `3`, `true`, a tuple, an object type (always expanded, as prettier keeps it). */
export type Literal = string | number | boolean | null | undefined | Literal[] | { [key: string]: Literal };

/** `Attribute.Relation<'a', 'b', 'c'>`: a type name and its arguments (literals, or bare keywords such as `undefined`). */
export interface TypeRef {
  name: string;
  args?: Array<Literal | Keyword>;
}

/** A bare type keyword as an argument (`undefined`, `number`, `string`), not a string literal. */
export class Keyword {
  constructor(readonly word: string) {}
}

export function quote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

const pad = (indent: number) => ' '.repeat(indent);

function isObjectType(value: Literal | Keyword): value is { [key: string]: Literal } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Keyword);
}

function containsObjectType(value: Literal | Keyword): boolean {
  if (isObjectType(value)) return true;
  return Array.isArray(value) && value.some(containsObjectType);
}

/** Object keys in the order Strapi's generator writes them (`localeCompare`). */
export function sortedEntries<T>(record: Record<string, T>): Array<[string, T]> {
  return Object.entries(record).sort(([a], [b]) => a.localeCompare(b));
}

function propertyKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key);
}

/** One line, or undefined when the value has an object type in it (those are always expanded). */
function flat(value: Literal | Keyword): string | undefined {
  if (value instanceof Keyword) return value.word;
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const items = value.map(flat);
    return items.every((item) => item !== undefined) ? `[${items.join(', ')}]` : undefined;
  }
  return undefined;
}

/** A value starting at column `column`, lines after the first at `indent`; `trailing` characters follow it. */
export function layoutValue(value: Literal | Keyword, indent: number, column: number, trailing: number): string {
  const line = flat(value);
  if (line !== undefined && column + line.length + trailing <= WIDTH) return line;
  if (isObjectType(value)) return layoutObject(value, indent);
  if (Array.isArray(value)) {
    const items = value.map((item) => `${pad(indent + 2)}${layoutValue(item, indent + 2, indent + 2, 1)}`);
    return `[\n${items.join(',\n')}\n${pad(indent)}]`;
  }
  return line ?? '';
}

/** `{ key: value; … }` expanded, members at `indent + 2`. */
export function layoutObject(value: { [key: string]: Literal }, indent: number): string {
  const members = sortedEntries(value).map(([key, member]) => {
    const head = `${pad(indent + 2)}${propertyKey(key)}: `;
    return `${head}${layoutValue(member, indent + 2, head.length, 1)};`;
  });
  return members.length === 0 ? '{}' : `{\n${members.join('\n')}\n${pad(indent)}}`;
}

function flatRef(ref: TypeRef): string | undefined {
  if (!ref.args || ref.args.length === 0) return ref.name;
  const args = ref.args.map(flat);
  return args.every((arg) => arg !== undefined) ? `${ref.name}<${args.join(', ')}>` : undefined;
}

function layoutRef(ref: TypeRef, indent: number, column: number, trailing: number): string {
  const line = flatRef(ref);
  if (line !== undefined && column + line.length + trailing <= WIDTH) return line;
  const args = ref.args ?? [];
  // prettier hugs a lone object-type argument: `Name<{` … `}>`.
  if (args.length === 1 && isObjectType(args[0]!)) return `${ref.name}<${layoutObject(args[0], indent)}>`;
  const lines = args.map((arg) => `${pad(indent + 2)}${layoutValue(arg, indent + 2, indent + 2, 1)}`);
  return `${ref.name}<\n${lines.join(',\n')}\n${pad(indent)}>`;
}

/** `A & B & C` after a property head ending at `column`, followed by `;`. */
export function layoutIntersection(refs: TypeRef[], indent: number, column: number): string {
  const lines = refs.map(flatRef);
  if (lines.every((line) => line !== undefined)) {
    const joined = lines.join(' & ');
    if (column + joined.length + 1 <= WIDTH) return joined;
  }
  if (refs.length === 1) return layoutRef(refs[0]!, indent, column, 1);
  const [first, ...rest] = refs;
  const parts = [layoutRef(first!, indent, column, 2)];
  rest.forEach((ref, index) => parts.push(`${pad(indent + 2)}${layoutRef(ref, indent + 2, indent + 2, index === rest.length - 1 ? 1 : 2)}`));
  return parts.join(' &\n');
}

export function hasObjectType(value: Literal | Keyword): boolean {
  return containsObjectType(value);
}
