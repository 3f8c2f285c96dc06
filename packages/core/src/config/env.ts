/**
 * `env()` for config files: `env('PORT', 1337)`, `env.int`, `env.float`,
 * `env.bool`, `env.json`, `env.array`. Reads the process environment (after
 * `.env` is loaded), so every config value can be overridden from outside.
 */
export interface Env {
  (name: string): string | undefined;
  <T>(name: string, fallback: T): string | T;
  int(name: string): number | undefined;
  int(name: string, fallback: number): number;
  float(name: string): number | undefined;
  float(name: string, fallback: number): number;
  bool(name: string): boolean | undefined;
  bool(name: string, fallback: boolean): boolean;
  json<T = unknown>(name: string, fallback?: T): T | undefined;
  array(name: string, fallback?: string[]): string[] | undefined;
}

export function createEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const read = (name: string): string | undefined => {
    const value = source[name];
    return value === undefined || value === '' ? undefined : value;
  };
  const env = ((name: string, fallback?: unknown) => read(name) ?? fallback) as Env;
  // A typo in a number (PORT=80a) fails the boot by name instead of becoming NaN somewhere later.
  env.int = ((name: string, fallback?: number) => {
    const value = read(name);
    if (value === undefined) return fallback;
    if (!/^\s*[-+]?\d+\s*$/.test(value)) throw new Error(`environment variable ${name} must be an integer, got "${value}"`);
    return Number.parseInt(value, 10);
  }) as Env['int'];
  env.float = ((name: string, fallback?: number) => {
    const value = read(name);
    if (value === undefined) return fallback;
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number)) throw new Error(`environment variable ${name} must be a number, got "${value}"`);
    return number;
  }) as Env['float'];
  env.bool = ((name: string, fallback?: boolean) => {
    const value = read(name);
    return value === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(value.toLowerCase());
  }) as Env['bool'];
  env.json = ((name: string, fallback?: unknown) => {
    const value = read(name);
    if (value === undefined) return fallback;
    try {
      return JSON.parse(value);
    } catch {
      throw new Error(`environment variable ${name} is not valid JSON`);
    }
  }) as Env['json'];
  env.array = (name: string, fallback?: string[]) => {
    const value = read(name);
    if (value === undefined) return fallback;
    return value.replace(/^\[|\]$/g, '').split(',').map((item) => item.trim().replace(/^"|"$/g, ''));
  };
  return env;
}
