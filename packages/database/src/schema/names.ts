import { createHash } from 'node:crypto';

/** Postgres truncates identifiers at 63 bytes; keep long names unique with a hash suffix. */
const MAX_IDENTIFIER = 63;

export function indexName(...parts: string[]): string {
  const name = parts.join('_');
  if (name.length <= MAX_IDENTIFIER) return name;
  const hash = createHash('sha1').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_IDENTIFIER - 9)}_${hash}`;
}
