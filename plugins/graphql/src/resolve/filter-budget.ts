/**
 * The comparisons one GraphQL request's filters may hold in all, across every read it runs (each alias, each
 * populated selection, each link loaded per level). A REST request holds at most 1,000 comparisons, since its query
 * string holds at most 1,000 parameters; the compiler bounds each filter at that, but a document repeats reads: ten
 * aliases of `articles(filters: $f)`, each `$f` an `or` of 1,000 comparisons, took 2.5 s (anonymous, 380 KB).
 * Counted on the parameters as the content API receives them (REST's form), before each read runs.
 */
import { ValidationError } from '@tessera/errors';

export const MAX_REQUEST_COMPARISONS = 1_000;
/** Operators whose list is one comparison (the compiler binds the list as one `IN`/`BETWEEN`). */
const LIST_OPERATORS = new Set(['$in', '$notIn', '$between']);

export class FilterBudget {
  private spent = 0;

  constructor(readonly limit = MAX_REQUEST_COMPARISONS) {}

  /** Charges a read's `filters` and those of its `populate` tree; over the limit, a 400 before the read runs. */
  charge(params: { filters?: unknown; populate?: unknown }): void {
    this.spent += comparisonsIn(params.filters) + populateComparisons(params.populate);
    if (this.spent > this.limit) throw new ValidationError(`Invalid parameter filters: at most ${this.limit} comparisons in one request`);
  }
}

function comparisonsIn(filters: unknown, key = ''): number {
  if (Array.isArray(filters)) {
    if (LIST_OPERATORS.has(key)) return 1;
    return filters.reduce((sum: number, item: unknown) => sum + comparisonsIn(item), 0);
  }
  if (!isPlainObject(filters)) return filters === undefined ? 0 : 1;
  let count = 0;
  for (const [name, value] of Object.entries(filters)) count += comparisonsIn(value, name);
  return count;
}

/** `populate` as the selection builds it: per attribute, `{ filters, populate, on: { component: {...} } }`. */
function populateComparisons(populate: unknown): number {
  if (!isPlainObject(populate)) return 0;
  let count = 0;
  for (const entry of Object.values(populate)) {
    if (!isPlainObject(entry)) continue;
    count += comparisonsIn(entry.filters) + populateComparisons(entry.populate) + populateComparisons(entry.on);
  }
  return count;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
