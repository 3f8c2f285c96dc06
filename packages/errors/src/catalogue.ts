/**
 * The one closed catalogue of errors Tessera raises on purpose.
 *
 * Every error a client can see is one of these classes; each carries the
 * Strapi v4 name and HTTP status, so the HTTP layer maps them in one place
 * (`toErrorBody`) and nothing else in the code base decides a status.
 */

export interface ValidationIssue {
  path: string[];
  message: string;
  name: string;
}

export type ErrorDetails = Record<string, unknown>;

export abstract class TesseraError extends Error {
  abstract readonly status: number;
  readonly details: ErrorDetails;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message);
    this.details = details;
  }
}

export class ValidationError extends TesseraError {
  override readonly name = 'ValidationError';
  readonly status = 400;

  /** Builds the "N errors occurred" form Strapi uses for several field errors. */
  static fromIssues(issues: ValidationIssue[]): ValidationError {
    const message = issues.length === 1 ? issues[0].message : `${issues.length} errors occurred`;
    return new ValidationError(message, { errors: issues });
  }

  static forField(path: string[], message: string): ValidationError {
    return ValidationError.fromIssues([{ path, message, name: 'ValidationError' }]);
  }
}

export class ApplicationError extends TesseraError {
  override readonly name = 'ApplicationError';
  readonly status = 400;
}

export class PaginationError extends TesseraError {
  override readonly name = 'PaginationError';
  readonly status = 400;
}

export class UnauthorizedError extends TesseraError {
  override readonly name = 'UnauthorizedError';
  readonly status = 401;
  constructor(message = 'Missing or invalid credentials', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class ForbiddenError extends TesseraError {
  override readonly name = 'ForbiddenError';
  readonly status = 403;
  constructor(message = 'Forbidden', details: ErrorDetails = {}) {
    super(message, details);
  }
}

/** A route or resolver policy said no (Strapi v4 names it apart from Forbidden). */
export class PolicyError extends TesseraError {
  override readonly name = 'PolicyError';
  readonly status = 403;
  constructor(message = 'Policy Failed', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class NotFoundError extends TesseraError {
  override readonly name = 'NotFoundError';
  readonly status = 404;
  constructor(message = 'Not Found', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class MethodNotAllowedError extends TesseraError {
  override readonly name = 'MethodNotAllowedError';
  readonly status = 405;
  constructor(message = 'Method Not Allowed', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class PayloadTooLargeError extends TesseraError {
  override readonly name = 'PayloadTooLargeError';
  readonly status = 413;
  constructor(message = 'Payload Too Large', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class UnsupportedMediaTypeError extends TesseraError {
  override readonly name = 'UnsupportedMediaTypeError';
  readonly status = 415;
  constructor(message = 'Unsupported Media Type', details: ErrorDetails = {}) {
    super(message, details);
  }
}

/** Too many requests from one client in a window (the users-permissions `/auth/*` limit). */
export class RateLimitError extends TesseraError {
  override readonly name = 'RateLimitError';
  readonly status = 429;
  constructor(message = 'Too many requests, please try again later.', details: ErrorDetails = {}) {
    super(message, details);
  }
}

export class InternalServerError extends TesseraError {
  override readonly name = 'InternalServerError';
  readonly status = 500;
  constructor(message = 'Internal Server Error', details: ErrorDetails = {}) {
    super(message, details);
  }
}

/**
 * The database cannot answer now (down, restarting, pool exhausted, busy, disk
 * full) — or a write's commit outcome is unknown. The client may retry; the
 * process stays up and recovers by itself.
 */
export class ServiceUnavailableError extends TesseraError {
  override readonly name = 'ServiceUnavailableError';
  readonly status = 503;
  constructor(message = 'Service Unavailable', details: ErrorDetails = {}) {
    super(message, details);
  }
}

/** A schema, config or boot problem: reported to the developer, never to a client. */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
  constructor(
    message: string,
    readonly file?: string,
  ) {
    super(file ? `${file}: ${message}` : message);
  }
}

export interface ErrorBody {
  data: null;
  error: { status: number; name: string; message: string; details: ErrorDetails };
}

/**
 * Turns anything thrown into the client-facing envelope. Unknown errors become
 * a bare 500 whose message never leaks internals.
 */
export function toErrorBody(error: unknown): ErrorBody {
  const known = normalizeError(error);
  return {
    data: null,
    error: { status: known.status, name: known.name, message: known.message, details: known.details },
  };
}

/** Maps framework errors (http-errors from koa-body, etc.) onto the catalogue. */
export function normalizeError(error: unknown): TesseraError {
  if (error instanceof TesseraError) return error;
  const foreign = fromStrapiCatalogue(error);
  if (foreign) return foreign;
  const status = httpStatusOf(error);
  switch (status) {
    case 400:
      return new ValidationError(errorMessage(error, 'Bad Request'));
    case 401:
      return new UnauthorizedError();
    case 403:
      return new ForbiddenError();
    case 404:
      return new NotFoundError();
    case 405:
      return new MethodNotAllowedError();
    case 413:
      return new PayloadTooLargeError();
    case 415:
      return new UnsupportedMediaTypeError();
    case 503:
      return new ServiceUnavailableError();
    default:
      return new InternalServerError();
  }
}

type CatalogueClass = new (message: string, details?: ErrorDetails) => TesseraError;

/** Strapi v4's error names (`@strapi/utils` `errors`) and the class of ours that answers the same. */
const STRAPI_NAMES: Record<string, CatalogueClass> = {
  ApplicationError,
  ValidationError,
  PaginationError,
  UnauthorizedError,
  ForbiddenError,
  PolicyError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitError,
};

/**
 * An error thrown with another copy of Strapi's classes (the real `@strapi/utils`
 * installed beside a plugin): it is one of ours by its `name`. Strapi's classes
 * always carry `details`, which tells them apart from other errors that happen to
 * share a name (yup's `ValidationError` has none, and Strapi answers it with a 500).
 */
function fromStrapiCatalogue(error: unknown): TesseraError | undefined {
  if (!(error instanceof Error) || !('details' in error)) return undefined;
  const Class = Object.hasOwn(STRAPI_NAMES, error.name) ? STRAPI_NAMES[error.name] : undefined;
  if (!Class) return undefined;
  const details = (error as { details: unknown }).details;
  const known = new Class(error.message, typeof details === 'object' && details !== null ? (details as ErrorDetails) : {});
  known.stack = error.stack;
  return known;
}

/** True when the error is not one we raised on purpose (worth logging with its stack). */
export function isUnexpected(error: unknown): boolean {
  return normalizeError(error).status >= 500;
}

function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const candidate = (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode;
  const expose = (error as { expose?: unknown }).expose;
  // Only trust statuses from http-errors style objects that declare themselves client errors.
  if (typeof candidate === 'number' && expose === true) return candidate;
  return undefined;
}

function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
