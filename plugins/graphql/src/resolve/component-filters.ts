/**
 * `filters` of a repeatable component field, applied to the loaded list
 * (components are read with their parent, in stored order). The operators
 * mean what they mean in SQL here: case-sensitive unless `…i`, `null`
 * matches only null, comparisons with null are false.
 */
type Filter = Record<string, unknown>;

export function matchesFilters(item: Record<string, unknown>, filters: unknown): boolean {
  if (!isObject(filters)) return true;
  for (const [key, condition] of Object.entries(filters)) {
    if (condition === undefined || condition === null) continue;
    if (key === 'and' && !(condition as unknown[]).every((part) => matchesFilters(item, part))) return false;
    if (key === 'or' && !(condition as unknown[]).some((part) => matchesFilters(item, part))) return false;
    if (key === 'not' && matchesFilters(item, condition)) return false;
    if (key === 'and' || key === 'or' || key === 'not') continue;
    const value = item[key];
    // A nested component: its own attributes' filters.
    if (isObject(value) && !hasOperators(condition as Filter)) {
      if (!matchesFilters(value, condition)) return false;
    } else if (!matchesOperators(value, condition as Filter)) return false;
  }
  return true;
}

const OPERATORS = new Set(['eq', 'eqi', 'ne', 'nei', 'lt', 'lte', 'gt', 'gte', 'in', 'notIn', 'contains', 'notContains', 'containsi', 'notContainsi', 'startsWith', 'endsWith', 'between', 'null', 'notNull', 'and', 'or', 'not']);

function hasOperators(filter: Filter): boolean {
  return Object.keys(filter).every((key) => OPERATORS.has(key));
}

function matchesOperators(value: unknown, filter: Filter): boolean {
  return Object.entries(filter).every(([operator, operand]) => operand === undefined || operand === null ? true : test(operator, value, operand));
}

function test(operator: string, value: unknown, operand: unknown): boolean {
  const text = (input: unknown) => String(input);
  const folded = (input: unknown) => String(input).toLowerCase();
  switch (operator) {
    case 'null':
      return operand ? value === null || value === undefined : value !== null && value !== undefined;
    case 'notNull':
      return operand ? value !== null && value !== undefined : value === null || value === undefined;
    case 'and':
      return (operand as unknown[]).every((item) => test('eq', value, item));
    case 'or':
      return (operand as unknown[]).some((item) => test('eq', value, item));
    case 'not':
      return !matchesOperators(value, operand as Filter);
  }
  if (value === null || value === undefined) return operator === 'ne' || operator === 'nei' || operator === 'notIn' || operator === 'notContains' || operator === 'notContainsi';
  switch (operator) {
    case 'eq':
      return equal(value, operand);
    case 'ne':
      return !equal(value, operand);
    case 'eqi':
      return folded(value) === folded(operand);
    case 'nei':
      return folded(value) !== folded(operand);
    case 'lt':
      return compare(value, operand) < 0;
    case 'lte':
      return compare(value, operand) <= 0;
    case 'gt':
      return compare(value, operand) > 0;
    case 'gte':
      return compare(value, operand) >= 0;
    case 'in':
      return (operand as unknown[]).some((item) => equal(value, item));
    case 'notIn':
      return !(operand as unknown[]).some((item) => equal(value, item));
    case 'between': {
      const [low, high] = operand as unknown[];
      return compare(value, low) >= 0 && compare(value, high) <= 0;
    }
    case 'contains':
      return text(value).includes(text(operand));
    case 'notContains':
      return !text(value).includes(text(operand));
    case 'containsi':
      return folded(value).includes(folded(operand));
    case 'notContainsi':
      return !folded(value).includes(folded(operand));
    case 'startsWith':
      return text(value).startsWith(text(operand));
    case 'endsWith':
      return text(value).endsWith(text(operand));
    default:
      return true;
  }
}

function equal(value: unknown, operand: unknown): boolean {
  if (typeof value === 'number' || typeof operand === 'number') return Number(value) === Number(operand);
  return value === operand || String(value) === String(operand);
}

function compare(value: unknown, operand: unknown): number {
  if (typeof value === 'number') return value - Number(operand);
  const left = String(value);
  const right = String(operand);
  return left < right ? -1 : left > right ? 1 : 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
