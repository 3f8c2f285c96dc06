/**
 * The admin's JWT secret: `admin.auth.secret` (config/admin, as Strapi reads
 * it), else `ADMIN_JWT_SECRET`. Without either, development generates one and
 * appends it to the app's `.env` (sessions survive restarts), tests use a
 * random one for the process, and any other environment refuses to boot with
 * Strapi's message: a guessable default would let anyone sign admin tokens.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';
import type { App } from '@tessera/core';

export function resolveAdminSecret(app: App): string {
  const configured = app.config.get<unknown>('admin.auth.secret');
  const given = (typeof configured === 'string' && configured) || process.env.ADMIN_JWT_SECRET || '';
  if (given) return given;
  const mode = process.env.NODE_ENV ?? 'development';
  const generated = crypto.randomBytes(32).toString('base64');
  if (mode === 'test') return generated;
  if (mode !== 'development') {
    throw new ConfigurationError(
      'Missing auth.secret. Please set auth.secret in config/admin.js (ex: you can generate one using Node with `crypto.randomBytes(16).toString(\'base64\')`), e.g. from ADMIN_JWT_SECRET',
      'config/admin',
    );
  }
  const file = path.join(app.dir, '.env');
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const separator = current === '' || current.endsWith('\n') ? '' : '\n';
  fs.appendFileSync(file, `${separator}ADMIN_JWT_SECRET=${generated}\n`);
  app.log.info(`admin: generated an admin JWT secret and saved it as ADMIN_JWT_SECRET in ${file}`);
  return generated;
}
