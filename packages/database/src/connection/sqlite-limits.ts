/**
 * SQLite LIMITs written into the statement text instead of bound.
 *
 * Since 3.4x SQLite's planner reads the value bound to a `LIMIT ?` (it may
 * plan differently for a small limit) and marks that parameter, so binding it
 * again — even to the same value — expires the statement, and the next step
 * parses and plans it from scratch (`sqlite3Reprepare`). A prepared get-one
 * (`… where id = ? limit ?`) was re-prepared on every call: measured with
 * callgrind, that was a fifth of all the instructions of a get-one request.
 * `OFFSET ?` is not marked, so it stays bound.
 *
 * Few values reach a LIMIT: page sizes (at most `api.rest.maxLimit`), 1, and
 * the entry budget's row caps (powers of two: entry-budget.ts), so each text
 * is prepared once and reused.
 */
import type { SqlStatement } from './sql-statement';

/** A statement text split around its LIMIT parameters. */
interface LimitSlots {
  /** The text between the LIMIT parameters (one more part than slots). */
  parts: string[];
  /** Binding index of each LIMIT parameter, in order. */
  slots: number[];
  /** Texts made so far, by their LIMIT values. */
  texts: Map<string, string>;
}

/** Caches stay bounded, as the prepared-statement cache does: SQL built from unbounded input starts them over. */
const CACHE_LIMIT = 1000;
const TEXTS_PER_STATEMENT = 64;
const NONE: LimitSlots = { parts: [], slots: [], texts: new Map() };

export class SqliteLimits {
  private readonly bySql = new Map<string, LimitSlots>();

  /** `statement` with each LIMIT parameter's value in the text; the statement itself when it has none. */
  inline(statement: SqlStatement): SqlStatement {
    const limits = this.slotsOf(statement.sql);
    if (limits === NONE) return statement;
    const values = limits.slots.map((slot) => statement.bindings[slot]);
    // Only integers go into SQL text; anything else stays a parameter (correct, just re-prepared).
    if (!values.every((value) => typeof value === 'number' && Number.isSafeInteger(value))) return statement;
    const key = values.join(',');
    let sql = limits.texts.get(key);
    if (sql === undefined) {
      sql = limits.parts.reduce((text, part, index) => (index === 0 ? part : `${text}${values[index - 1]}${part}`), '');
      if (limits.texts.size < TEXTS_PER_STATEMENT) limits.texts.set(key, sql);
    }
    const skipped = new Set(limits.slots);
    return { sql, bindings: statement.bindings.filter((_, index) => !skipped.has(index)) };
  }

  private slotsOf(sql: string): LimitSlots {
    let limits = this.bySql.get(sql);
    if (!limits) {
      if (this.bySql.size >= CACHE_LIMIT) this.bySql.clear();
      limits = findLimitSlots(sql);
      this.bySql.set(sql, limits);
    }
    return limits;
  }
}

/**
 * The `?` parameters of `sql` that a LIMIT takes. Quoted text (identifiers in
 * backticks or double quotes, string literals) is skipped: a `?` there is not
 * a parameter.
 */
export function findLimitSlots(sql: string): LimitSlots {
  const parts: string[] = [];
  const slots: number[] = [];
  let parameter = 0;
  let partStart = 0;
  let quote: string | undefined;
  for (let index = 0; index < sql.length; index++) {
    const char = sql[index]!;
    if (quote) {
      if (char === quote) quote = undefined;
      continue;
    }
    if (char === '`' || char === '"' || char === "'" || char === '[') {
      quote = char === '[' ? ']' : char;
      continue;
    }
    if (char !== '?') continue;
    if (followsLimit(sql, index, partStart)) {
      parts.push(sql.slice(partStart, index));
      slots.push(parameter);
      partStart = index + 1;
    }
    parameter++;
  }
  if (slots.length === 0) return NONE;
  parts.push(sql.slice(partStart));
  return { parts, slots, texts: new Map() };
}

/** Whether the keyword LIMIT (then whitespace) comes right before position `at`, after `from`. */
function followsLimit(sql: string, at: number, from: number): boolean {
  let end = at;
  while (end > from && /\s/.test(sql[end - 1]!)) end--;
  if (end === at || end - 5 < from || sql.slice(end - 5, end).toLowerCase() !== 'limit') return false;
  const before = sql[end - 6];
  return before === undefined || !/[\w`"\]]/.test(before);
}
