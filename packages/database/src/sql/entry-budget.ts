/**
 * How many entries one answer may hold (`maxPopulatedEntries`), counted as
 * they appear in the answer, not as rows read.
 *
 * The reader loads each populated level once for all parents and shares an
 * entry between the parents that link it, so what it reads grows with the
 * distinct rows — but the answer (JSON, GraphQL) repeats a shared entry under
 * every parent that links it, and a tags → articles → tags … chain multiplies
 * at every level. So the budget counts appearances: a root entry appears once;
 * an entry loaded for a level appears once per appearance of each parent that
 * links it. Every level is charged right after its rows are read, before the
 * next level is asked for, and its query asks for at most `remaining + 1`
 * rows (each row is at least one appearance), so an over-budget level stops
 * the read with a 400 before more rows arrive.
 *
 * Relations, media files and components all count; `count` populates do not
 * (they return a number). The page itself counts too.
 */
import { ValidationError } from '@tessera/errors';
/** An entry read: its id and its identity (how often the same object appears). */
type Entity = { id: number };

export class EntryBudget {
  /** How many times each loaded entity appears in the answer; absent means once (a root entry). Made at the first level. */
  private appearances: WeakMap<Entity, number> | undefined;

  constructor(
    readonly limit: number,
    /** What has been spent, shared with the views `forAnswered` makes. */
    private readonly spent = { used: 0 },
    private readonly rootsAnswered = false,
  ) {}

  /**
   * The same budget for a read whose root entries the answer already holds
   * (GraphQL's batch loader reading parents again to load one of their
   * links): only what it populates is new.
   */
  forAnswered(): EntryBudget {
    return new EntryBudget(this.limit, this.spent, true);
  }

  /**
   * At least one row more than the next level may read without going over (that row proves it is), rounded up to
   * a power of two: a cap bounds the read, it does not cut the answer (a level that reaches it is over budget either
   * way), and a few distinct caps keep SQLite, which writes LIMITs into the statement text, at a few statements.
   */
  get rowCap(): number {
    return 2 ** Math.ceil(Math.log2(Math.max(0, this.limit - this.spent.used) + 1));
  }

  /** The root level (a page or one entry): each row appears once. */
  chargeRoot(entities: readonly Entity[]): void {
    if (!this.rootsAnswered) this.spend(entities.length);
  }

  /**
   * One populated level: `links` pairs each row's parent id with the entity
   * read for it. Throws before anything of the next level is read when the
   * answer would go over the budget.
   */
  chargeLevel(parents: readonly Entity[], links: Iterable<readonly [source: number, entity: Entity]>): void {
    const weights = new Map<number, number>();
    for (const parent of parents) weights.set(parent.id, (weights.get(parent.id) ?? 0) + this.timesOf(parent));
    const times = new Map<Entity, number>();
    let total = 0;
    for (const [source, entity] of links) {
      const weight = weights.get(source) ?? 0;
      total += weight;
      times.set(entity, (times.get(entity) ?? 0) + weight);
    }
    this.spend(total);
    this.appearances ??= new WeakMap();
    for (const [entity, count] of times) this.appearances.set(entity, count);
  }

  /** Entries the answer repeats outside the reader's levels (GraphQL's batch loader showing a link under a parent again). */
  charge(count: number): void {
    this.spend(count);
  }

  private timesOf(entity: Entity): number {
    return this.appearances?.get(entity) ?? 1;
  }

  private spend(count: number): void {
    this.spent.used += count;
    if (this.spent.used > this.limit) throw tooManyEntries(this.limit);
  }
}

export function tooManyEntries(limit: number): ValidationError {
  return new ValidationError(
    `Too many entries: this request would return more than ${limit} entries across its populate levels (maxPopulatedEntries). ` +
      'Populate fewer levels or relations, or ask for a smaller page',
    { maxPopulatedEntries: limit },
  );
}
