/**
 * Where the JWT signing secret comes from: `JWT_SECRET`, else the plugin's
 * `jwtSecret`. Without one, development generates a random secret and
 * appends it to the app's `.env` (so tokens survive restarts), tests use a
 * random one for the process, and any other environment refuses to boot: a
 * guessable default secret would let anyone mint tokens.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';

export interface SecretSource {
  appDir: string;
  configured: unknown;
  env: NodeJS.ProcessEnv;
  log: { info(message: string): void };
}

export function resolveJwtSecret({ appDir, configured, env, log }: SecretSource): string {
  const given = env.JWT_SECRET || (typeof configured === 'string' ? configured : '');
  if (given) return given;
  const mode = env.NODE_ENV ?? 'development';
  const generated = crypto.randomBytes(32).toString('base64');
  if (mode === 'test') return generated;
  if (mode !== 'development') {
    throw new ConfigurationError(`users-permissions needs a JWT secret in ${mode}: set JWT_SECRET (or plugins.users-permissions.config.jwtSecret)`, 'config/plugins');
  }
  const file = path.join(appDir, '.env');
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const separator = current === '' || current.endsWith('\n') ? '' : '\n';
  fs.appendFileSync(file, `${separator}JWT_SECRET=${generated}\n`);
  log.info(`users-permissions: generated a JWT secret and saved it as JWT_SECRET in ${file}`);
  return generated;
}
