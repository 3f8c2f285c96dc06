/**
 * Whether tests that install from npm can run: they skip, saying why, when the
 * registry does not answer (never silently).
 */
import { spawnSync } from 'node:child_process';

/** Why the npm registry cannot be used, or undefined when `npm ping` answers. */
export function registryUnreachable(): string | undefined {
  const ping = spawnSync('npm', ['ping'], { encoding: 'utf8', timeout: 30_000 });
  return ping.status === 0 ? undefined : `npm registry unreachable (${(ping.stderr || ping.stdout || 'no answer').trim().split('\n').pop()})`;
}
