/**
 * Identical reads in flight at the same moment share one query (PostgreSQL
 * and MySQL; a SQLite read runs synchronously and is never in flight).
 *
 * Thirty clients asking for the same page at once — a home page under a
 * traffic spike, a frontend's server rendering the same list — cost
 * PostgreSQL thirty scans of the same rows, and the first answer would have
 * served them all. So a read outside any transaction whose SQL text and
 * bindings equal those of a read already running waits for that one, and
 * gets its own copy of the rows.
 *
 * Why the answer is still current: a read joins only while no write has
 * finished since the running one began (the write generation is the same).
 * Every write that finishes bumps it — this process's statements and
 * transactions at once, other processes' as they are heard of
 * (write-notifications.ts, mysql-write-versions.ts). Those are heard some
 * time after they commit (a NOTIFY in flight, a poll's interval), so a read
 * that joins also waits for `heardUpToNow` (heard-barrier.ts: a check begun
 * after it arrived) and uses the rows only if no other process's write was
 * heard meanwhile; otherwise it runs its own query. So a request sent after
 * a write's answer never gets rows of a read that started before the write.
 * It joins before the check, so a quick read that ends
 * first still serves it. While notifications may be missed (the listener is
 * down), nothing is shared. A joined read's rows are as of a moment just
 * before the request arrived: at most one query's duration earlier, as with
 * any read that overlaps a write.
 */

interface InFlight {
  generation: number;
  /** Those waiting for the leader's rows, each to get its own copy. */
  joiners: Array<{ resolve(value: unknown): void; reject(error: unknown): void }>;
}

export class SharedReads {
  private generation = 0;
  /** Other processes' writes heard so far (each also bumps the generation). */
  private remoteWrites = 0;
  private coherent = true;
  private readonly reads = new Map<string, InFlight>();
  /** Set where other processes' writes are heard late (PostgreSQL, MySQL): resolves once every write committed before the call is heard. */
  private heardUpToNow: (() => Promise<void>) | undefined;

  /** Before joining, wait for `check` (see the module's comment). */
  confirmWritesWith(check: () => Promise<void>): void {
    this.heardUpToNow = check;
  }

  /** A write finished (or may have): reads running now are not shared with later requests. */
  written(): void {
    this.generation++;
  }

  /** Another process's write was heard of (it may have committed well before): as `written`, and joins waiting for the check do not use their rows. */
  heardRemoteWrite(): void {
    this.remoteWrites++;
    this.generation++;
  }

  /** False while other processes' writes may go unheard: then nothing is shared. */
  setCoherent(coherent: boolean): void {
    this.coherent = coherent;
    this.remoteWrites++;
    this.generation++;
  }

  /**
   * Runs `read`, or waits for the identical one running: `kind` tells readers
   * that decode rows differently apart. The leader gets the rows the driver
   * made; each joiner a deep copy, made before anyone can change them.
   */
  async share<T>(kind: string, sql: string, bindings: readonly unknown[], read: () => Promise<T>): Promise<T> {
    const key = readKey(kind, sql, bindings);
    if (key === undefined || !this.coherent) return read();
    const running = this.reads.get(key);
    if (!running || running.generation !== this.generation) return this.lead(key, read);
    // Joins at once, so a read that ends before the check still serves this one. Its rows are used only if the check
    // heard no other process's write: that write may have committed before this read arrived. (A write of this
    // process finishing meanwhile came after it arrived: it does not matter, as for any read overlapping a write.)
    const rows = new Promise<T>((resolve, reject) => running.joiners.push({ resolve: resolve as (value: unknown) => void, reject }));
    if (!this.heardUpToNow) return rows;
    const remoteWrites = this.remoteWrites;
    const [copy] = await Promise.all([rows, this.heardUpToNow()]);
    return this.coherent && this.remoteWrites === remoteWrites ? copy : read();
  }

  private async lead<T>(key: string, read: () => Promise<T>): Promise<T> {
    const own: InFlight = { generation: this.generation, joiners: [] };
    this.reads.set(key, own);
    try {
      const rows = await read();
      this.finish(key, own);
      for (const joiner of own.joiners) joiner.resolve(copyOf(rows));
      return rows;
    } catch (error) {
      this.finish(key, own);
      for (const joiner of own.joiners) joiner.reject(error);
      throw error;
    }
  }

  /** Later identical reads start their own query (a newer leader may have taken the key meanwhile: it keeps it). */
  private finish(key: string, own: InFlight): void {
    if (this.reads.get(key) === own) this.reads.delete(key);
  }
}

/**
 * The key of a read: its SQL and each binding with its type, since the
 * driver sends a string and a number, or a Date and its ISO text, differently.
 * Undefined for a binding it cannot tell apart safely: that read is not shared.
 */
function readKey(kind: string, sql: string, bindings: readonly unknown[]): string | undefined {
  // Each part is tagged with its type and length, so no two lists of bindings give the same key.
  let key = `${kind} ${sql.length}:${sql}`;
  for (const value of bindings) {
    let part: string;
    if (value === null || value === undefined) part = 'n';
    else if (typeof value === 'string') part = `s${value}`;
    else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') part = `${typeof value}${String(value)}`;
    else if (value instanceof Date) part = `d${value.getTime()}`;
    else if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) part = `a${JSON.stringify(value)}`;
    else return undefined;
    key += ` ${part.length}:${part}`;
  }
  return key;
}

/** A deep copy of what a driver answers: arrays, plain objects (rows, parsed JSON), Dates and Buffers. */
function copyOf<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Buffer.isBuffer(value)) return Buffer.from(value) as T;
  if (Array.isArray(value)) return value.map(copyOf) as T;
  const copy: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) copy[name] = copyOf(item);
  return copy as T;
}
