/**
 * Shape checks for what an app file exports, before it enters a registry:
 * a policy or middleware file exports a function, a routes file a router.
 */
import { ConfigurationError } from '@tessera/errors';
import type { RouterDefinition } from '../types';

export function asFunction(value: unknown, file: string): unknown {
  if (typeof value !== 'function') throw new ConfigurationError('must export a function', file);
  return value;
}

export function asRouter(value: unknown, file: string): RouterDefinition {
  const router = value as RouterDefinition;
  if (!router || (typeof router.routes !== 'function' && !Array.isArray(router.routes))) {
    throw new ConfigurationError('a routes file must export { routes: [...] } or a core router', file);
  }
  return router;
}
