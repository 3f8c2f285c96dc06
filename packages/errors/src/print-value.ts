/**
 * yup 0.32's `printValue(value, true)` for JSON values, as Strapi's validation messages show a value ("must be a
 * `string` type, but the final value was: `…`"): strings quoted, containers as JSON with every scalar quoted again.
 * Plugins that answer Strapi's body-validation messages (users-permissions, admin) share it.
 */

/** Values printed longer are cut: an error message does not echo a whole request body. */
const MAX_PRINTED = 10_000;

export function printValue(value: unknown): string {
  const simple = printSimple(value);
  if (simple !== null) return simple;
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key: string, inner: unknown) {
    return printSimple(this[key]) ?? inner;
  }, 2);
  return text.length > MAX_PRINTED ? `${text.slice(0, MAX_PRINTED)}...` : text;
}

function printSimple(value: unknown): string | null {
  if (value === null || value === undefined || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return `"${value}"`;
  return null;
}
