/**
 * Strapi v4 filters through relations, components and media with LEFT JOINs:
 * an entry with no linked row is compared as if it had one row of NULLs, so
 * `filters[category][id][$null]=true` finds the entries without a category.
 * We keep EXISTS (no duplicated rows, no inflated totals) and add the
 * "no linked row" case only for conditions that such a NULL row satisfies.
 *
 * This module decides that statically, in SQL's three-valued logic, exactly
 * as conditions.ts would evaluate each comparison on a NULL column.
 */
import type { Dialect } from '../connection/config';
import type { ComparisonOperator, Condition } from '../query/plan';

/** SQL truth: `null` is UNKNOWN, which a WHERE clause rejects like false. */
type Truth = boolean | null;

export function holdsOnMissingRow(condition: Condition, dialect: Dialect): boolean {
  return evaluate(condition, dialect) === true;
}

function evaluate(condition: Condition, dialect: Dialect): Truth {
  switch (condition.kind) {
    case 'and':
      return all(condition.items.map((item) => evaluate(item, dialect)));
    case 'or':
      return any(condition.items.map((item) => evaluate(item, dialect)));
    case 'not': {
      const inner = evaluate(condition.item, dialect);
      return inner === null ? null : !inner;
    }
    case 'related':
    case 'component':
    case 'media':
      // A missing row has no links either; a link condition (an EXISTS, or IN over a set without NULLs) is never UNKNOWN.
      return evaluate(condition.condition, dialect) === true;
    case 'compare':
      return compareNull(condition.operator, condition.value, dialect);
  }
}

function all(values: Truth[]): Truth {
  if (values.includes(false)) return false;
  return values.includes(null) ? null : true;
}

function any(values: Truth[]): Truth {
  if (values.includes(true)) return true;
  return values.includes(null) ? null : false;
}

/** `NULL <operator> value`, as conditions.ts writes it. */
function compareNull(operator: ComparisonOperator, value: unknown, dialect: Dialect): Truth {
  switch (operator) {
    case '$null':
    case '$notNull':
      return (operator === '$null') === (value === true);
    case '$eq':
      return value === null ? true : null; // IS NULL
    case '$ne':
      return value === null ? false : null; // IS NOT NULL
    case '$lt':
    case '$lte':
    case '$gt':
    case '$gte':
      return value === null ? false : null; // 1 = 0
    case '$in':
      return (value as unknown[]).length === 0 ? false : null;
    case '$notIn':
      return (value as unknown[]).length === 0 ? true : null; // no constraint
    case '$startsWith':
    case '$endsWith':
      // SQLite writes an empty edge as IS NOT NULL.
      return value === '' && dialect === 'sqlite' ? false : null;
    default:
      return null;
  }
}
