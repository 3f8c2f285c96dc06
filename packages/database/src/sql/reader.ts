/**
 * Reading: one query for a page, one for its count, then one query per
 * populated attribute per level — never one per row. Populated relations are
 * loaded for all parents at once through their join table and bucketed by
 * parent id in memory.
 */
import type { Knex } from 'knex';
import type { Connection, Row } from '../connection/connection';
import type { ColumnField, EntityMetadata, Metadata } from '../metadata/metadata';
import type { ReadPlan, Page, PopulateItem, RelationPopulate } from '../query/plan';
import { applyCondition, applyPublicationState, createSqlContext, type SqlContext } from './conditions';
import { RowMapper } from './row-mapper';
import { loadComponents } from './components-reader';
import { loadMedia } from './media-reader';
import { StatementTemplates, type SlotMarkers, type Statement } from './statement-templates';
import { PlanShapes } from './plan-shape';
import { WINDOW, tableEnd, windowCoversPage, windowFor, windowOf, windowServesSort } from './search-window';
import { SearchTermGate } from './search-term-gate';
import { type Entity, type LevelBuilder, type LevelReader, type LevelStatement, uniqueIds } from './level-reader';
import { idListBinding, whereIdList, whereIdListBinding } from '../relations/link-sql';
import { EntryBudget } from './entry-budget';
import { isStorableId } from '../query/coerce';
import { coveringIndex } from './covering-count';
import { pagePerParent, type OrderTerm } from './link-page';
import { applySort, sortTerms } from './sort-terms';
import { IDS, idsFirst, pageIds } from './deep-page';
import { MARK_STRIDE, type MarkedStart, type PageMarks, marksMayServe } from './page-marks';

export type { Entity } from './level-reader';

const ROOT = 't0';

export class EntityReader implements LevelReader {
  private readonly mapper: RowMapper;
  private readonly statements = new StatementTemplates();
  private readonly shapes: PlanShapes;
  /** Per plan shape: may a page come from the head of the sort order (search-window.ts)? */
  private readonly windowed = new Map<string, boolean>();
  /** SQLite: which 2-character runs are looked up in a search table's trigrams (search-term-gate.ts). */
  private readonly gate: SearchTermGate;
  private readonly pairLookups = (searchTable: string, run: string): boolean => this.gate.allows(searchTable, run);

  constructor(
    readonly connection: Connection,
    readonly metadata: Metadata,
    /** Where deep pages of id-ordered lists may start (page-marks.ts); none for a reader without a count cache. */
    private readonly marks?: PageMarks,
  ) {
    this.mapper = new RowMapper(connection.dialect);
    this.shapes = new PlanShapes(connection.dialect);
    this.gate = new SearchTermGate(connection);
  }

  /**
   * A page of `query`; `budget` (else one of the plan's `maxEntries`, if any) bounds the entries of the answer.
   * `matching`: how many entries match `query`, when the caller holds that total (it chooses whether to ask the window).
   */
  findMany(query: ReadPlan, page?: Page, budget = budgetOf(query), matching?: number): Promise<Entity[]> {
    // Not async: the page's own promise, not one more around it on every list.
    return this.readPage(query, page, budget, true, matching);
  }

  /** `marked`: may the page start after a mark? Not a page read with its total, on any database (page-marks.ts). */
  private async readPage(query: ReadPlan, page: Page | undefined, budget: EntryBudget | undefined, marked: boolean, matching?: number): Promise<Entity[]> {
    const choosing = this.gate.prepare(query);
    if (choosing) await choosing;
    let window = this.windowFirst(query, page, matching);
    if (typeof window === 'object' && window !== null) window = await window;
    const windowed = window !== null && windowCoversPage(page) ? await this.fromWindow(query, page, window) : undefined;
    const markable = marked && !windowed && this.marks && marksMayServe(query, page);
    const start = markable ? await this.marks!.start(query, page, () => this.readMarks(query)) : undefined;
    const rows = windowed ?? (await this.connection.values(this.pageStatement(query, page, false, start)));
    return this.loaded(query, this.mapper.mapValues(query.fields, rows), budget);
  }

  /**
   * A page of `query` and the number of entries matching it, from one pass over them: the page's statement
   * carries `count(*) over ()`. When the page is empty that count is not there: then the total is 0 for a first page
   * and counted apart past it (an offset beyond the end) or for a page of none (`limit` 0). A SQLite search page the window serves (search-window.ts)
   * walks too few rows to count them: its total is counted first, and decides whether the window is asked at all. So
   * is a SQLite total one index holds (covering-count.ts): walking that index costs less than reading every matching
   * row for the page's count.
   */
  async findManyCounted(query: ReadPlan, page: Page, budget = budgetOf(query)): Promise<{ entities: Entity[]; total: number }> {
    const choosing = this.gate.prepare(query);
    if (choosing) await choosing;
    if (this.connection.dialect === 'sqlite' && windowCoversPage(page) && this.windowServes(query)) {
      const total = await this.count(query);
      if (total <= page.offset) return { entities: [], total };
      return { entities: await this.readPage(query, page, budget, false, total), total };
    }
    if (this.connection.dialect === 'sqlite' && coveringIndex(query) !== undefined) {
      const [entities, total] = await Promise.all([this.readPage(query, page, budget, false), this.count(query)]);
      return { entities, total };
    }
    const rows = await this.connection.values(this.pageStatement(query, page, true));
    const total = rows.length > 0 ? Number(rows[0]![0]) : page.offset === 0 && page.limit !== 0 ? 0 : await this.count(query);
    const entities = this.loaded(query, this.mapper.mapValues(query.fields, rows, 1), budget);
    return { entities: Array.isArray(entities) ? entities : await entities, total };
  }

  /**
   * Root entries just read: charged to the budget, then populated. Nothing to populate (most reads by id) answers
   * the entries themselves, not a promise: the read's own promise carries them, with none made for an empty step.
   */
  private loaded(query: ReadPlan, entities: Entity[], budget: EntryBudget | undefined): Entity[] | Promise<Entity[]> {
    budget?.chargeRoot(entities);
    if (entities.length === 0 || query.populate.size === 0) return entities;
    return this.populate(entities, query, budget).then(() => entities);
  }

  /**
   * `counted`: the number of matching rows first in each row (`count(*) over ()`, computed before LIMIT applies).
   * `start`: the page begins after a mark (page-marks.ts), skipping `start.offset` rows rather than `page.offset`.
   */
  private pageStatement(query: ReadPlan, page: Page | undefined, counted = false, start?: MarkedStart): Statement {
    const offset = start?.offset ?? page?.offset ?? 0;
    const withLimit = page?.limit !== undefined;
    const withOffset = offset > 0;
    const values = [...(withLimit ? [page!.limit] : []), ...(withOffset ? [offset] : []), ...(start ? [start.after] : [])];
    const deep = !start && idsFirst(query, page, counted);
    const variant = `many:${withLimit}:${withOffset}:${counted}:${deep}:${start !== undefined}`;
    return this.statements.bindShape(this.shapes.of(query), variant, values, (markers, slots) => {
      const ctx = this.context(query, slots);
      const paged = (qb: Knex.QueryBuilder) => {
        applySort(qb, query.sort, ROOT, ctx, this.metadata);
        if (withLimit) qb.limit(markers[0]);
        if (withOffset) qb.offset(markers[withLimit ? 1 : 0]);
        return qb;
      };
      if (start) {
        const qb = this.selectFrom(query, ctx, counted);
        qb.where(`${ROOT}.id`, query.sort[0]!.direction === 'desc' ? '<' : '>', markers[markers.length - 1]);
        return paged(qb);
      }
      if (!deep) return paged(this.selectFrom(query, ctx, counted));
      // The page's ids, then its rows by id in the same order (deep-page.ts).
      const ids = pageIds(ctx.knex, query, ROOT, ctx.dialect, counted, (qb) => this.applyFilters(qb, query, ctx), paged);
      const qb = ctx.knex.from(ids.as(IDS)).innerJoin({ [ROOT]: query.entity.tableName }, `${ROOT}.id`, `${IDS}.id`);
      if (counted) qb.select(`${IDS}.__total`);
      qb.select(query.fields.map((field) => `${ROOT}.${field.column}`));
      applySort(qb, query.sort, ROOT, ctx, this.metadata);
      return qb;
    });
  }

  /** The ids at every MARK_STRIDE-th row of an id-ordered `query` (page-marks.ts): one walk of the matching ids. */
  private async readMarks(query: ReadPlan): Promise<number[]> {
    const statement = this.statements.bindShape(this.shapes.of(query), 'marks', [], (_markers, slots) => {
      const ctx = this.context(query, slots);
      const direction = query.sort[0]!.direction === 'desc' ? 'desc' : 'asc';
      const numbered = ctx.knex.from({ [ROOT]: query.entity.tableName }).select(`${ROOT}.id`);
      numbered.select(ctx.knex.raw(`row_number() over (order by ??.?? ${direction}) as ??`, [ROOT, 'id', '__n']));
      this.applyFilters(numbered, query, ctx);
      return ctx.knex.from(numbered.as('numbered')).select('id').whereRaw(`?? % ${MARK_STRIDE} = 0`, ['__n']).orderBy('__n');
    });
    return (await this.connection.values(statement)).map((row) => Number(row[0]));
  }

  /** SQLite searches: the page from the first `length` rows of the sort order when they hold a full page, else undefined (search-window.ts). */
  private async fromWindow(query: ReadPlan, page: Page & { limit: number }, length: number): Promise<unknown[][] | undefined> {
    const statement = this.statements.bindShape(this.shapes.of(query), 'window', [length, page.limit, page.offset], ([head, limit, offset], slots) => {
      const ctx = createSqlContext(this.connection.knex, this.connection.dialect, query.publicationState, false, slots);
      const qb = ctx.knex.from(windowOf(ctx.knex, query, ROOT, head, (rows) => applySort(rows, query.sort, ROOT, ctx, this.metadata)));
      qb.select(query.fields.map((field) => `${ROOT}.${field.column}`));
      this.applyFilters(qb, query, ctx);
      applySort(qb, query.sort, ROOT, ctx, this.metadata);
      return qb.limit(limit).offset(offset);
    });
    const rows = await this.connection.values(statement);
    return rows.length === page.limit ? rows : undefined;
  }

  /**
   * How many rows of the sort order to look for this page in first (search-window.ts), or null to go to the search
   * table. Where the window may serve: WINDOW rows when how many rows match is not known; when it is, as many as the
   * page likely needs, if walking them costs less than the search table's reads.
   */
  private windowFirst(query: ReadPlan, page: Page | undefined, matching: number | undefined): number | null | Promise<number | null> {
    if (!windowCoversPage(page) || !this.windowServes(query)) return null;
    if (matching === undefined) return WINDOW;
    // Kept per table, not per plan shape: every new search term is a shape of its own.
    const statement = this.statements.bind(query.entity, 'tableEnd', [], () => tableEnd(this.connection.knex, query.entity.tableName));
    return this.connection.first(statement).then((row) => windowFor(page, matching, Number(row?.end ?? 0)));
  }

  private windowServes(query: ReadPlan): boolean {
    if (this.connection.dialect !== 'sqlite') return false;
    const { key } = this.shapes.of(query);
    let serves = this.windowed.get(key);
    if (serves === undefined) {
      const ctx = this.context(query);
      this.selectFrom(query, ctx);
      serves = windowServesSort(query, ctx.usedSearchIndex);
      if (this.windowed.size >= 2000) this.windowed.clear();
      this.windowed.set(key, serves);
    }
    return serves;
  }

  async findById(query: ReadPlan, id: number, budget = budgetOf(query)): Promise<Entity | null> {
    if (!isStorableId(id)) return null;
    const statement = this.statements.bindShape(this.shapes.of(query), 'byId', [id], ([idMarker], slots) =>
      this.selectFrom(query, this.context(query, slots)).where(`${ROOT}.id`, idMarker).limit(1),
    );
    const rows = await this.connection.values(statement);
    if (rows.length === 0) return null;
    const entities = this.loaded(query, this.mapper.mapValues(query.fields, rows), budget);
    return (Array.isArray(entities) ? entities : await entities)[0]!;
  }

  /** The entity of a row holding `query`'s columns, returned by the write that stored it, populated. */
  async fromRow(query: ReadPlan, row: Row, budget = budgetOf(query)): Promise<Entity> {
    const entities = this.loaded(query, [this.mapper.mapRow(query.fields, row)], budget);
    return (Array.isArray(entities) ? entities : await entities)[0]!;
  }

  async count(query: ReadPlan): Promise<number> {
    const choosing = this.gate.prepare(query);
    if (choosing) await choosing;
    const statement = this.statements.bindShape(this.shapes.of(query), 'count', [], (_markers, slots) => {
      const ctx = this.context(query, slots);
      const index = this.connection.dialect === 'sqlite' ? coveringIndex(query) : undefined;
      const table = index ? ctx.knex.raw('?? as ?? indexed by ??', [query.entity.tableName, ROOT, index]) : { [ROOT]: query.entity.tableName };
      const qb = ctx.knex.from(table).count({ count: '*' });
      this.applyFilters(qb, query, ctx);
      return qb;
    });
    const row = await this.connection.first(statement);
    return Number(row?.count ?? 0);
  }

  /** Loads every populated attribute of `query` onto `entities`, level by level, charging each level to `budget`. */
  async populate(entities: Entity[], query: ReadPlan, budget?: EntryBudget): Promise<void> {
    if (entities.length === 0 || query.populate.size === 0) return;
    for (const [name, item] of query.populate) await this.populateOne(entities, name, item, budget);
  }

  private populateOne(entities: Entity[], name: string, item: PopulateItem, budget: EntryBudget | undefined): Promise<void> {
    if (item.kind === 'relation') return this.populateRelation(entities, name, item, budget);
    if (item.kind === 'media') return loadMedia(this, entities, name, item, budget);
    return loadComponents(this, entities, name, item, budget);
  }

  private async populateRelation(entities: Entity[], name: string, item: RelationPopulate, budget: EntryBudget | undefined): Promise<void> {
    if (item.countOnly) {
      const counts = await this.countRelated(uniqueIds(entities), item);
      for (const entity of entities) entity[name] = { count: counts.get(entity.id) ?? 0 };
      return;
    }
    const buckets = await this.loadRelated(entities, item, budget);
    for (const entity of entities) {
      const related = buckets.get(entity.id) ?? [];
      entity[name] = item.relation.toMany ? related : related[related.length - 1] ?? null;
    }
  }

  /** Related entries of every parent, by parent id, in relation order (or the requested sort). */
  private async loadRelated(parents: Entity[], item: RelationPopulate, budget: EntryBudget | undefined): Promise<Map<number, Entity[]>> {
    const { relation, query } = item;
    const join = relation.joinTable;
    const joinAlias = 'j';
    const statement = this.levelStatement(query, `related:${relationKey(item)}`, uniqueIds(parents), budget?.rowCap, (whereIds, rowCap, slots) => {
      const ctx = this.context(query, slots);
      const qb = ctx.knex
        .from({ [joinAlias]: join.name })
        .innerJoin({ [ROOT]: query.entity.tableName }, `${ROOT}.id`, `${joinAlias}.${join.inverseJoinColumn}`)
        .select(`${joinAlias}.${join.joinColumn} as __source`, ...query.fields.map((field) => `${ROOT}.${field.column}`));
      whereIds(qb, `${joinAlias}.${join.joinColumn}`);
      this.applyFilters(qb, query, ctx);
      // No sort asked for: the relation's own order (its order column), as Strapi populates; `id:desc` is a sort asked for.
      const order: OrderTerm[] = query.sort.some((item) => !item.tiebreak)
        ? sortTerms(qb, query.sort, ROOT, ctx, this.metadata)
        : [...(join.orderColumn ? [`${joinAlias}.${join.orderColumn}`] : []), `${joinAlias}.id`].map((column) => ({ sql: '?? asc', bindings: [column] }));
      const paged = item.page ? pagePerParent(ctx.knex, qb, `${joinAlias}.${join.joinColumn}`, order, item.page) : qb;
      if (!item.page) for (const term of order) qb.orderByRaw(term.sql, term.bindings);
      return rowCap === undefined ? paged : paged.limit(rowCap);
    });

    // Each row: the parent's id (`__source`), then the fields.
    const rows = await this.connection.values(statement);
    const idAt = 1 + query.fields.findIndex((field) => field.column === 'id');
    const byId = new Map<number, Entity>();
    const buckets = new Map<number, Entity[]>();
    for (const row of rows) {
      const source = Number(row[0]);
      const id = Number(row[idAt]);
      let entity = byId.get(id);
      if (!entity) {
        entity = this.mapper.mapValues(query.fields, [row], 1)[0]!;
        byId.set(id, entity);
      }
      const bucket = buckets.get(source);
      if (bucket) bucket.push(entity);
      else buckets.set(source, [entity]);
    }
    budget?.chargeLevel(parents, linksOf(buckets));
    // Checked here, not only in populate: a relation populated without a nested level (most are) awaits nothing more.
    if (query.populate.size > 0) await this.populate([...byId.values()], query, budget);
    return buckets;
  }

  private async countRelated(ids: number[], item: RelationPopulate): Promise<Map<number, number>> {
    const { relation, query } = item;
    const join = relation.joinTable;
    const statement = this.levelStatement(query, `count:${relationKey(item)}`, ids, undefined, (whereIds, _rowCap, slots) => {
      const ctx = this.context(query, slots);
      const qb = ctx.knex
        .from({ j: join.name })
        .innerJoin({ [ROOT]: query.entity.tableName }, `${ROOT}.id`, `j.${join.inverseJoinColumn}`)
        .select(`j.${join.joinColumn} as __source`)
        .count({ count: '*' })
        .groupBy(`j.${join.joinColumn}`);
      whereIds(qb, `j.${join.joinColumn}`);
      this.applyFilters(qb, query, ctx);
      return qb;
    });
    const rows = await this.connection.all(statement);
    return new Map(rows.map((row) => [Number(row.__source), Number(row.count)]));
  }

  mapValues(fields: ColumnField[], rows: unknown[][], offset: number): Entity[] {
    return this.mapper.mapValues(fields, rows, offset);
  }

  context(query: ReadPlan, slots?: SlotMarkers): SqlContext {
    const ctx = createSqlContext(this.connection.knex, this.connection.dialect, query.publicationState, true, slots);
    ctx.pairLookups = this.pairLookups;
    return ctx;
  }

  private selectFrom(query: ReadPlan, ctx: SqlContext, counted = false): Knex.QueryBuilder {
    const qb = ctx.knex.from({ [ROOT]: query.entity.tableName });
    if (counted) qb.select(ctx.knex.raw('count(*) over () as ??', ['__total']));
    qb.select(query.fields.map((field) => `${ROOT}.${field.column}`));
    this.applyFilters(qb, query, ctx);
    return qb;
  }

  levelStatement(query: ReadPlan, variant: string, ids: number[], rowCap: number | undefined, build: LevelBuilder): LevelStatement {
    const dialect = this.connection.dialect;
    if (dialect === 'mysql') return this.mysqlLevelStatement(query, variant, ids, rowCap, build);
    const values = rowCap === undefined ? [idListBinding(dialect, ids)] : [idListBinding(dialect, ids), rowCap];
    return this.statements.bindShape(this.shapes.of(query), rowCap === undefined ? variant : `${variant}:capped`, values, ([idsMarker, capMarker], slots) =>
      build((qb, column) => whereIdListBinding(dialect, qb, column, idsMarker), capMarker, slots),
    );
  }

  /**
   * MySQL binds a value per id (no array type), so the SQL text depends on how many there are. The list is padded to
   * the next power of two by repeating its last id (a repeat in IN changes nothing): a level's SQL then takes one of
   * a few forms, each built through knex once, not on every request.
   */
  private mysqlLevelStatement(query: ReadPlan, variant: string, ids: number[], rowCap: number | undefined, build: LevelBuilder): LevelStatement {
    if (ids.length === 0) return build((qb, column) => whereIdList('mysql', qb, column, ids), rowCap, undefined);
    const size = 2 ** Math.ceil(Math.log2(ids.length));
    const padded = ids.length === size ? ids : [...ids, ...Array<number>(size - ids.length).fill(ids[ids.length - 1]!)];
    const values = rowCap === undefined ? padded : [...padded, rowCap];
    return this.statements.bindShape(this.shapes.of(query), `${variant}:${size}${rowCap === undefined ? '' : ':capped'}`, values, (markers, slots) =>
      build((qb, column) => qb.whereIn(column, markers.slice(0, size)), rowCap === undefined ? undefined : markers[size], slots),
    );
  }

  applyFilters(qb: Knex.QueryBuilder, query: ReadPlan, ctx: SqlContext, alias = ROOT): void {
    applyPublicationState(qb, query.entity, query.publicationState, alias);
    if (query.where) applyCondition(qb, query.where, alias, ctx);
  }
}

/** What a relation level's SQL depends on besides its plan's shape: the relation (its join table), and the page per parent. */
function relationKey(item: RelationPopulate): string {
  return `${item.relation.joinTable.name}:${item.relation.joinTable.joinColumn}:${item.relation.joinTable.inverseJoinColumn}:${item.relation.joinTable.orderColumn ?? ''}:${item.page ? `${item.page.offset}/${item.page.limit ?? ''}` : ''}`;
}

function budgetOf(query: ReadPlan): EntryBudget | undefined {
  return query.maxEntries === undefined ? undefined : new EntryBudget(query.maxEntries);
}

function* linksOf(buckets: Map<number, Entity[]>): Iterable<readonly [number, Entity]> {
  for (const [source, entities] of buckets) for (const entity of entities) yield [source, entity];
}

export type { EntityMetadata };
