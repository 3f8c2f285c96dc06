/**
 * A small leveled logger: `TESSERA_LOG_LEVEL` (or `server.logger.level`)
 * chooses error | warn | info | http | debug | silent.
 */
const LEVELS = ['silent', 'error', 'warn', 'info', 'http', 'debug'] as const;
export type LogLevel = (typeof LEVELS)[number];

export class Logger {
  private readonly rank: number;

  constructor(level: string = 'info') {
    const index = LEVELS.indexOf(level as LogLevel);
    this.rank = index < 0 ? LEVELS.indexOf('info') : index;
  }

  enabled(level: LogLevel): boolean {
    return LEVELS.indexOf(level) <= this.rank && this.rank > 0;
  }

  error(message: string, error?: unknown): void {
    if (!this.enabled('error')) return;
    console.error(`[tessera] error: ${message}`);
    if (error instanceof Error && error.stack) console.error(error.stack);
  }

  warn(message: string): void {
    if (this.enabled('warn')) console.warn(`[tessera] warn: ${message}`);
  }

  info(message: string): void {
    if (this.enabled('info')) console.log(`[tessera] ${message}`);
  }

  http(message: string): void {
    if (this.enabled('http')) console.log(`[tessera] ${message}`);
  }

  debug(message: string): void {
    if (this.enabled('debug')) console.log(`[tessera] debug: ${message}`);
  }
}
