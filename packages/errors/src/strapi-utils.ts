/**
 * What Strapi v4 app code imports from `@strapi/utils` to throw errors
 * (`const { errors } = require('@strapi/utils'); throw new errors.ApplicationError('…')`):
 * the kernel's module loader resolves `@strapi/utils` to this package, and
 * these are our own catalogue's classes under Strapi's names.
 */
import * as catalogue from './catalogue';

export const errors = {
  ApplicationError: catalogue.ApplicationError,
  ValidationError: catalogue.ValidationError,
  PaginationError: catalogue.PaginationError,
  UnauthorizedError: catalogue.UnauthorizedError,
  ForbiddenError: catalogue.ForbiddenError,
  PolicyError: catalogue.PolicyError,
  NotFoundError: catalogue.NotFoundError,
  PayloadTooLargeError: catalogue.PayloadTooLargeError,
};
