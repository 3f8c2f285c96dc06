/**
 * `populate[x][start]` and `populate[x][limit]`: a page of each parent's
 * related list, with Strapi v4's rules for the values (`start` an integer
 * ≥ 0, `limit` an integer ≥ 0 or -1 for no limit; strings from a query
 * string are read as numbers). The page applies to every parent on its own
 * (sql/link-page.ts): Strapi 4.26 applies a populate `limit` to the rows of
 * all parents together, which gives a list page only some of them.
 * GraphQL's relation `pagination` reaches the reader this way.
 */
import type { Page } from './plan';
import { invalidParameter } from './compile-context';

export function compileLinkPage(params: { start?: unknown; limit?: unknown }, name: string): Page | undefined {
  if (params.start === undefined && params.limit === undefined) return undefined;
  const offset = params.start === undefined ? 0 : integer(params.start, `populate.${name}.start`);
  if (offset < 0) throw invalidParameter(`populate.${name}.start`, 'expected an integer ≥ 0');
  const limit = params.limit === undefined ? -1 : integer(params.limit, `populate.${name}.limit`);
  if (limit < -1) throw invalidParameter(`populate.${name}.limit`, 'expected an integer ≥ 0, or -1 for no limit');
  return limit === -1 ? { offset } : { offset, limit };
}

function integer(value: unknown, key: string): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number)) throw invalidParameter(key, 'expected an integer');
  return number;
}
