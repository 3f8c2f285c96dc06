/**
 * Query strings → parameters, with qs in bracket notation and hard bounds:
 * too deep, too many parameters or too long an array is a 400, not a slow
 * request. Prototype keys (`__proto__`, `constructor`) are dropped by qs.
 */
import qs from 'qs';
import { ValidationError } from '@tessera/core';

const LIMITS = {
  depth: 12,
  parameterLimit: 1000,
  arrayLimit: 100,
  maxLength: 16 * 1024,
};

export function parseQuery(querystring: string): Record<string, unknown> {
  if (querystring === '') return {};
  if (querystring.length > LIMITS.maxLength) throw new ValidationError(`Query string too long (limit ${LIMITS.maxLength} characters)`);
  try {
    return qs.parse(querystring, {
      depth: LIMITS.depth,
      strictDepth: true,
      parameterLimit: LIMITS.parameterLimit,
      arrayLimit: LIMITS.arrayLimit,
      throwOnLimitExceeded: true,
      allowPrototypes: false,
      plainObjects: true,
    }) as Record<string, unknown>;
  } catch (error) {
    throw new ValidationError(`Invalid query string: ${(error as Error).message}`);
  }
}
