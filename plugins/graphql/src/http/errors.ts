/**
 * Errors in Strapi v4's GraphQL format, mapped from the one catalogue in
 * @tessera/errors as Strapi 4.26.2's formatGraphqlError maps its own:
 * `extensions.code` is FORBIDDEN for a refusal (ForbiddenError, PolicyError,
 * UnauthorizedError), BAD_USER_INPUT for a ValidationError,
 * `STRAPI_<NAME>` for every other application error (`STRAPI_APPLICATION_ERROR`,
 * `STRAPI_NOT_FOUND_ERROR`, recorded from it), INTERNAL_SERVER_ERROR for
 * anything else; `extensions.error` carries `{ name, message, details }` as
 * REST would. A 500's message and stack never leave the server: they are logged.
 */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { isUnexpected, normalizeError, type TesseraError } from '@tessera/errors';
import type { Logger } from '@tessera/core';

export type ErrorCode = 'FORBIDDEN' | 'BAD_USER_INPUT' | 'INTERNAL_SERVER_ERROR' | 'GRAPHQL_PARSE_FAILED' | 'GRAPHQL_VALIDATION_FAILED' | `STRAPI_${string}`;

function codeOf(error: TesseraError): ErrorCode {
  if (error.status === 401 || error.status === 403) return 'FORBIDDEN';
  if (error.status >= 500) return 'INTERNAL_SERVER_ERROR';
  if (error.name === 'ValidationError' || error.name === 'YupValidationError') return 'BAD_USER_INPUT';
  // lodash's snakeCase of the name, upper-cased: NotFoundError → NOT_FOUND_ERROR.
  return `STRAPI_${error.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`;
}

/** A catalogue error (or anything thrown) as a formatted GraphQL error. */
export function catalogueError(error: unknown, log: Logger): GraphQLFormattedError {
  const known = normalizeError(error);
  if (isUnexpected(error)) {
    log.error('graphql: a resolver failed', error);
    return { message: 'Internal Server Error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
  return {
    message: known.message,
    extensions: { error: { name: known.name, message: known.message, details: known.details }, code: codeOf(known) },
  };
}

/** An error from `execute`: what a resolver threw, or GraphQL's own (variables, non-null violations). */
export function formatExecutionError(error: GraphQLError, log: Logger): GraphQLFormattedError {
  // graphql-js returns what variable coercion threw as it is, not wrapped: never the client's to read.
  if (!(error instanceof GraphQLError)) return catalogueError(error, log);
  const original = error.originalError;
  if (original && !(original instanceof GraphQLError)) {
    // As Strapi's: the error alone, without GraphQL's locations and path.
    return catalogueError(original, log);
  }
  if (original instanceof GraphQLError && original.extensions?.code) return original.toJSON();
  if (error.extensions?.code) return error.toJSON();
  const formatted = error.toJSON();
  // Without a path: GraphQL's input coercion (a bad variable), the client's mistake. With one: a value the
  // schema cannot answer (a null in a non-null field), the server's.
  const code: ErrorCode = error.path ? 'INTERNAL_SERVER_ERROR' : 'BAD_USER_INPUT';
  if (code === 'INTERNAL_SERVER_ERROR') log.error(`graphql: ${error.message}`);
  return { ...formatted, extensions: { ...formatted.extensions, code } };
}

/** Parse and validation failures (and our limits), answered with 400 before anything runs. */
export function requestError(message: string, code: ErrorCode, error?: GraphQLError): GraphQLFormattedError {
  const formatted = error ? error.toJSON() : { message };
  return { ...formatted, message: error?.message ?? message, extensions: { ...formatted.extensions, code } };
}
