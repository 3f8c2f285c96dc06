/**
 * Condition → knex WHERE. Operators mean the same on both databases:
 * `$contains`/`$startsWith`/`$endsWith`/`$eq` are case-sensitive, the `…i`
 * forms fold case (Unicode too), and LIKE wildcards in values are literal.
 * A condition through a relation, component or media is an EXISTS over the
 * link table, so it can never duplicate rows or inflate a count; an entry with
 * no linked row reads as a row of NULLs (missing-row.ts), as in Strapi v4.
 * Links nested inside a link are id sets instead (see applyLinkCondition), and
 * long `and`/`or` lists are grouped (grouped-items.ts): the SQL's work grows with
 * the tables and the filter's size, never with their product or beyond what a
 * database's parser takes.
 */
import type { Knex } from 'knex';
import type { Dialect } from '../connection/config';
import type { ColumnField, EntityMetadata } from '../metadata/metadata';
import type { ComparisonOperator, Condition, LinkCondition, PublicationState } from '../query/plan';
import { encoderFor } from '../query/codec';
import { MORPH_TABLE } from '../metadata/media';
import { holdsOnMissingRow } from './missing-row';
import { applyItems } from './grouped-items';
import { searchCandidateIds } from './search-candidates';

export interface SqlContext {
  knex: Knex;
  dialect: Dialect;
  /** Drafts of related entries are invisible to relation filters under `live`. */
  publicationState: PublicationState;
  /** Hands out unique table aliases within one statement. */
  nextAlias(): string;
  /** SQLite: narrow text matches through the search tables (false: plain scans, see search-window.ts). */
  searchIndex: boolean;
  /** Set once a condition of this statement went through a search table. */
  usedSearchIndex: boolean;
  /** SQLite: whether a 2-character run is looked up in a search table's trigrams (search-term-gate.ts); absent: scanned. */
  pairLookups?: (searchTable: string, run: string) => boolean;
  /**
   * While a statement template is built: what to bind in place of a comparison's value (a marker the template
   * puts each plan's own value at; plan-shape.ts says which comparisons have one).
   */
  slots?: ReadonlyMap<Condition, unknown>;
}

export function createSqlContext(
  knex: Knex,
  dialect: Dialect,
  publicationState: PublicationState,
  searchIndex = true,
  slots?: ReadonlyMap<Condition, unknown>,
): SqlContext {
  let counter = 0;
  return { knex, dialect, publicationState, nextAlias: () => `t${++counter}`, searchIndex, usedSearchIndex: false, slots };
}

type Builder = Knex.QueryBuilder;

/**
 * `insideLink`: the condition is part of a link's own condition (a subquery), where a further link is written as an id
 * set rather than an EXISTS correlated with the row (applyLinkCondition says why).
 */
export function applyCondition(qb: Builder, condition: Condition, alias: string, ctx: SqlContext, insideLink = false): void {
  switch (condition.kind) {
    case 'and':
    case 'or':
      applyItems(qb, condition.kind, condition.items, (inner, item) => applyCondition(inner, item, alias, ctx, insideLink));
      return;
    case 'not':
      qb.whereNot((inner) => applyCondition(inner, condition.item, alias, ctx, insideLink));
      return;
    case 'related':
    case 'component':
    case 'media':
      if (insideLink && ctx.dialect !== 'mysql') applyLinkSet(qb, condition, alias, ctx);
      else applyLinkCondition(qb, condition, alias, ctx);
      return;
    case 'compare':
      applyComparison(qb, condition.field, condition.operator, condition.value, alias, ctx, ctx.slots?.get(condition));
      return;
  }
}

/** Restricts to published entries when the entity has drafts and the state is live. */
export function applyPublicationState(qb: Builder, entity: EntityMetadata, state: PublicationState, alias: string): void {
  if (entity.draftAndPublish && state === 'live') qb.whereNotNull(`${alias}.published_at`);
}

/**
 * Some linked row matches; or, when a row of NULLs would match, there is no
 * linked row at all. Under `live` a draft target is no linked row: drafts
 * never count, so their values cannot be probed.
 */
function applyLinkCondition(qb: Builder, condition: LinkCondition, alias: string, ctx: SqlContext): void {
  const matching = linkedRows(condition, ctx, alias);
  applyCondition(matching.query, condition.condition, matching.targetAlias, ctx, true);
  if (!holdsOnMissingRow(condition.condition, ctx.dialect)) {
    qb.whereExists(matching.query);
    return;
  }
  const anyRow = linkedRows(condition, ctx, alias).query;
  qb.where((inner) => inner.whereExists(matching.query).orWhereNotExists(anyRow));
}

/**
 * A link inside a link's condition: `id IN (the ids linked to a matching row)`, a set that does not depend on the
 * outer row, so each database computes it once per statement. As nested EXISTS, each level ran again for every row of
 * the level above: the work was the product of the links' fan-outs (`filters[tags][articles][tags][articles]…`, ten
 * hops over 30 seeded articles, held SQLite's only thread for 11 s and grew without bound with the hops). The
 * answer is the EXISTS's: the set's column is never NULL, so `IN`/`NOT IN` are never UNKNOWN. Not on MySQL/MariaDB:
 * MariaDB flattens nested IN subqueries into one semi-join and searches the join orders of all its tables (2.6 s
 * to plan those ten hops), while it runs the nested EXISTS without that product (0.2 s).
 */
function applyLinkSet(qb: Builder, condition: LinkCondition, alias: string, ctx: SqlContext): void {
  const matching = linkedRows(condition, ctx);
  applyCondition(matching.query, condition.condition, matching.targetAlias, ctx, true);
  if (!holdsOnMissingRow(condition.condition, ctx.dialect)) {
    qb.whereIn(`${alias}.id`, matching.query);
    return;
  }
  const anyRow = linkedRows(condition, ctx).query;
  qb.where((inner) => inner.whereIn(`${alias}.id`, matching.query).orWhereNotIn(`${alias}.id`, anyRow));
}

interface LinkedRows {
  query: Builder;
  targetAlias: string;
}

/**
 * The rows linked by the condition's attribute, before its own condition: with `alias`, `SELECT 1` over those of
 * that row (correlated, for EXISTS); without, the owners' ids of all of them (for IN).
 */
function linkedRows(condition: LinkCondition, ctx: SqlContext, alias?: string): LinkedRows {
  const joinAlias = ctx.nextAlias();
  const targetAlias = ctx.nextAlias();
  const ownerColumn = `${joinAlias}.${ownerColumnOf(condition)}`;
  const base = alias === undefined ? ctx.knex.select(ownerColumn).whereNotNull(ownerColumn) : ctx.knex.select(ctx.knex.raw('1'));
  if (alias !== undefined) base.whereRaw('?? = ??', [ownerColumn, `${alias}.id`]);
  if (condition.kind === 'related') {
    const join = condition.relation.joinTable;
    base
      .from({ [joinAlias]: join.name })
      .innerJoin({ [targetAlias]: condition.target.tableName }, `${targetAlias}.id`, `${joinAlias}.${join.inverseJoinColumn}`);
    applyPublicationState(base, condition.target, ctx.publicationState, targetAlias);
  } else if (condition.kind === 'component') {
    // `<table>_components` joined to the component's table.
    base
      .from({ [joinAlias]: condition.owner.componentJoinTable! })
      .innerJoin({ [targetAlias]: condition.target.tableName }, `${targetAlias}.id`, `${joinAlias}.component_id`)
      .where(`${joinAlias}.field`, condition.field.name)
      .where(`${joinAlias}.component_type`, condition.target.uid);
  } else {
    // `files_related_morphs` joined to `files`, as media populate reads them.
    base
      .from({ [joinAlias]: MORPH_TABLE })
      .innerJoin({ [targetAlias]: condition.target.tableName }, `${targetAlias}.id`, `${joinAlias}.file_id`)
      .where(`${joinAlias}.related_type`, condition.owner.uid)
      .where(`${joinAlias}.field`, condition.field.name);
  }
  return { query: base, targetAlias };
}

/** The link table's column holding the owner's id. */
function ownerColumnOf(condition: LinkCondition): string {
  if (condition.kind === 'related') return condition.relation.joinTable.joinColumn;
  return condition.kind === 'component' ? 'entity_id' : 'related_id';
}

/** `slot`: a template's marker bound instead of the stored value (only for a non-null `$eq`/`$ne`/range value: plan-shape.ts). */
function applyComparison(qb: Builder, field: ColumnField, operator: ComparisonOperator, value: unknown, alias: string, ctx: SqlContext, slot?: unknown): void {
  const column = `${alias}.${field.column}`;
  const encoder = encoderFor(field, ctx.dialect);
  const encode = slot === undefined ? encoder : () => slot;
  switch (operator) {
    case '$eq':
      if (value === null) qb.whereNull(column);
      else if (exactBytes(field, ctx)) qb.whereRaw('?? = BINARY ?', [column, encode(value) as Knex.Value]);
      else qb.where(column, encode(value) as Knex.Value);
      return;
    case '$ne':
      if (value === null) qb.whereNotNull(column);
      else if (exactBytes(field, ctx)) qb.whereRaw('?? <> BINARY ?', [column, encode(value) as Knex.Value]);
      else qb.where(column, '<>', encode(value) as Knex.Value);
      return;
    case '$lt':
    case '$lte':
    case '$gt':
    case '$gte':
      if (value === null) qb.whereRaw('1 = 0');
      else if (byCodePoint(field, ctx)) qb.whereRaw(`${codePointColumn(ctx)} ${SQL_COMPARATOR[operator]} ?`, [column, encode(value) as Knex.Value]);
      else qb.where(column, SQL_COMPARATOR[operator], encode(value) as Knex.Value);
      return;
    case '$in':
    case '$notIn':
      applyList(qb, column, operator === '$notIn', (value as unknown[]).map(encoder), exactBytes(field, ctx));
      return;
    case '$between': {
      const [low, high] = (value as unknown[]).map(encoder);
      if (byCodePoint(field, ctx)) qb.whereRaw(`${codePointColumn(ctx)} BETWEEN ? AND ?`, [column, low as Knex.Value, high as Knex.Value]);
      else qb.whereBetween(column, [low as Knex.Value, high as Knex.Value]);
      return;
    }
    case '$null':
    case '$notNull': {
      const wantsNull = (operator === '$null') === (value === true);
      if (wantsNull) qb.whereNull(column);
      else qb.whereNotNull(column);
      return;
    }
    default:
      applyTextMatch(qb, field, operator, String(value ?? ''), alias, ctx);
  }
}

const SQL_COMPARATOR = { $lt: '<', $lte: '<=', $gt: '>', $gte: '>=' } as const;

/** Text ranges compare by code point on Postgres and MySQL too (as SQLite does, and as sorting does), whatever the database collation. */
function byCodePoint(field: ColumnField, ctx: SqlContext): boolean {
  return ctx.dialect !== 'sqlite' && TEXT_TYPES.has(field.type);
}

/** The column compared by code point: utf8mb4's bytes sort as its code points. */
function codePointColumn(ctx: SqlContext): string {
  return ctx.dialect === 'mysql' ? 'BINARY ??' : '?? COLLATE "C"';
}

/**
 * MySQL/MariaDB: text equality byte for byte. Their default collations ignore
 * case, accents and trailing spaces; `$eq` must not (as on SQLite and Postgres).
 */
function exactBytes(field: ColumnField, ctx: SqlContext): boolean {
  return ctx.dialect === 'mysql' && TEXT_TYPES.has(field.type);
}

function applyList(qb: Builder, column: string, negated: boolean, values: unknown[], binary = false): void {
  if (values.length === 0) {
    if (!negated) qb.whereRaw('1 = 0');
    return;
  }
  if (binary) {
    const list = values.map(() => 'BINARY ?').join(', ');
    qb.whereRaw(`?? ${negated ? 'NOT IN' : 'IN'} (${list})`, [column, ...(values as Knex.Value[])]);
    return;
  }
  if (negated) qb.whereNotIn(column, values as Knex.Value[]);
  else qb.whereIn(column, values as Knex.Value[]);
}

type TextOperator = Exclude<ComparisonOperator, '$eq' | '$ne' | '$lt' | '$lte' | '$gt' | '$gte' | '$in' | '$notIn' | '$between' | '$null' | '$notNull'>;

function applyTextMatch(qb: Builder, field: ColumnField, operator: TextOperator, value: string, alias: string, ctx: SqlContext): void {
  const column = `${alias}.${field.column}`;
  const negated = operator === '$nei' || operator === '$notContains' || operator === '$notContainsi';
  const apply = (inner: Builder) => textMatch(inner, field, operator, value, column, ctx);
  if (negated) {
    qb.whereNot(apply);
    return;
  }
  const candidates = searchCandidates(field, operator, value, ctx);
  if (candidates) qb.whereIn(`${alias}.id`, candidates);
  qb.where(apply);
}

/** SQLite, a searched column: the ids that may match, through its search table (search-candidates.ts). Null: scan. */
function searchCandidates(field: ColumnField, operator: TextOperator, value: string, ctx: SqlContext): Builder | null {
  if (ctx.dialect !== 'sqlite' || !field.searchTable || !ctx.searchIndex) return null;
  const searchTable = field.searchTable;
  const pairs = (run: string) => ctx.pairLookups?.(searchTable, run) ?? false;
  const candidates = searchCandidateIds(ctx.knex, searchTable, field.column, operator.endsWith('i') ? value.toLowerCase() : value, pairs);
  if (candidates) ctx.usedSearchIndex = true;
  return candidates;
}

function textMatch(qb: Builder, field: ColumnField, operator: TextOperator, value: string, column: string, ctx: SqlContext): void {
  const text = textExpression(field, column, ctx);
  switch (operator) {
    case '$eqi':
    case '$nei':
      qb.whereRaw(`${foldedExpression(text, value, ctx)} = ${ctx.dialect === 'mysql' ? 'LOWER(?)' : '?'}`, [value.toLowerCase()]);
      return;
    case '$containsi':
    case '$notContainsi':
      // SQLite, no letter in the value (`99`): folding cannot make or break a match (see likeFolded), and instr() scans
      // a row's text at about twice the speed of LIKE … ESCAPE (a search box's digits, on every row without an index).
      if (ctx.dialect === 'sqlite' && !CASED.test(value)) qb.whereRaw(`instr(${text}, ?) > 0`, [value]);
      else likeFolded(qb, text, `%${escapeLike(value.toLowerCase())}%`, value, ctx);
      return;
    case '$startsWithi':
      likeFolded(qb, text, `${escapeLike(value.toLowerCase())}%`, value, ctx);
      return;
    case '$endsWithi':
      likeFolded(qb, text, `%${escapeLike(value.toLowerCase())}`, value, ctx);
      return;
    case '$contains':
    case '$notContains':
      if (ctx.dialect === 'sqlite') qb.whereRaw(`instr(${text}, ?) > 0`, [value]);
      else if (ctx.dialect === 'mysql') qb.whereRaw(`${text} LIKE BINARY ?`, [`%${escapeLike(value)}%`]);
      else qb.whereRaw(`${text} LIKE ? ESCAPE '\\'`, [`%${escapeLike(value)}%`]);
      return;
    case '$startsWith':
      caseSensitiveEdge(qb, text, value, 'start', ctx);
      return;
    case '$endsWith':
      caseSensitiveEdge(qb, text, value, 'end', ctx);
      return;
  }
}

/**
 * The column's text form, the same on both databases: numbers in their
 * shortest form (`7`, `1.5` — not SQLite's `7.0` nor Postgres's `7.00`),
 * times as `HH:mm:ss.SSS` (as the API answers them), dates as `YYYY-MM-DD`.
 */
function textExpression(field: ColumnField, column: string, ctx: SqlContext): string {
  const quoted = ctx.knex.raw('??', [column]).toQuery();
  if (TEXT_TYPES.has(field.type)) return quoted;
  const numeric = field.type === 'float' || field.type === 'decimal';
  if (ctx.dialect === 'sqlite') return numeric ? `(CASE WHEN ${quoted} IS NULL THEN NULL ELSE printf('%.15g', ${quoted}) END)` : `CAST(${quoted} AS TEXT)`;
  if (ctx.dialect === 'mysql') return mysqlText(field, quoted);
  if (numeric) return `CAST(CAST(${quoted} AS double precision) AS TEXT)`;
  if (field.type === 'time') return `to_char(${quoted}, 'HH24:MI:SS.MS')`;
  return `CAST(${quoted} AS TEXT)`;
}

const TEXT_TYPES = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration', 'password']);

/**
 * SQLite's own lower()/LIKE fold ASCII only. An ASCII-only value can only
 * match ASCII text, so the native forms are exact then; otherwise we fold
 * with the registered full-Unicode `tessera_lower`.
 */
function foldedExpression(text: string, value: string, ctx: SqlContext): string {
  if (ctx.dialect === 'postgres') return `LOWER(${text})`;
  // MySQL folds Unicode in LOWER() whatever the collation; the comparison itself must then be binary.
  if (ctx.dialect === 'mysql') return `BINARY LOWER(${text})`;
  return isAscii(value) ? `lower(${text})` : `tessera_lower(${text})`;
}

function likeFolded(qb: Builder, text: string, pattern: string, value: string, ctx: SqlContext): void {
  if (ctx.dialect !== 'sqlite' && !CASED.test(value)) {
    // No letter in the value (`99`, `2024-`): folding the text cannot make or break a match — case mappings
    // only ever lead letters to letters — so the plain match answers the same, without lowering every row
    // (PostgreSQL's ILIKE lowers each row's text first unless the database's ctype is C: about 3× the scan).
    if (ctx.dialect === 'mysql') qb.whereRaw(`${text} LIKE BINARY ?`, [pattern]);
    else qb.whereRaw(`${text} LIKE ? ESCAPE '\\'`, [pattern]);
    return;
  }
  if (ctx.dialect === 'postgres') {
    qb.whereRaw(`${text} ILIKE ? ESCAPE '\\'`, [pattern]);
    return;
  }
  if (ctx.dialect === 'mysql') {
    // The pattern was lowered by JavaScript; LOWER() again in SQL, so both sides use the same folding. `\` is MySQL's default escape.
    qb.whereRaw(`LOWER(${text}) LIKE BINARY LOWER(?)`, [pattern]);
    return;
  }
  const subject = isAscii(value) ? text : `tessera_lower(${text})`;
  qb.whereRaw(`${subject} LIKE ? ESCAPE '\\'`, [pattern]);
}

function caseSensitiveEdge(qb: Builder, text: string, value: string, edge: 'start' | 'end', ctx: SqlContext): void {
  if (ctx.dialect !== 'sqlite') {
    const pattern = edge === 'start' ? `${escapeLike(value)}%` : `%${escapeLike(value)}`;
    if (ctx.dialect === 'mysql') qb.whereRaw(`${text} LIKE BINARY ?`, [pattern]);
    else qb.whereRaw(`${text} LIKE ? ESCAPE '\\'`, [pattern]);
    return;
  }
  // SQLite's LIKE ignores case; compare the edge substring exactly instead.
  const length = [...value].length;
  if (length === 0) {
    qb.whereRaw(`${text} IS NOT NULL`);
    return;
  }
  const slice = edge === 'start' ? `substr(${text}, 1, ${length})` : `substr(${text}, -${length})`;
  qb.whereRaw(`${slice} = ?`, [value]);
}

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Anything case folding might map to or from: ASCII letters and every non-ASCII character. */
const CASED = /[A-Za-z\u0080-\uffff]/;

function isAscii(value: string): boolean {
  return /^[\x00-\x7f]*$/.test(value);
}

/** MySQL's text form of a non-text column, as textExpression's other forms. */
function mysqlText(field: ColumnField, quoted: string): string {
  if (field.type === 'float' || field.type === 'decimal') return `CAST(CAST(${quoted} AS DOUBLE) AS CHAR)`;
  if (field.type === 'time') return `LEFT(TIME_FORMAT(${quoted}, '%H:%i:%s.%f'), 12)`;
  if (field.type === 'boolean') return `(CASE ${quoted} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END)`;
  return `CAST(${quoted} AS CHAR)`;
}
