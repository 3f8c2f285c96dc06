/**
 * The query-parameter compiler: a pure function of (parameters, model) to a
 * validated `ReadPlan`. Everything a client can send in `filters`, `sort`,
 * `fields`, `populate` and `publicationState` is checked here, so the SQL
 * layer only ever sees known columns, known operators and typed values.
 */
import { ValidationError } from '@tessera/errors';
import type { EntityMetadata, Metadata } from '../metadata/metadata';
import type { ReadPlan, PublicationState } from './plan';
import type { CompileContext, CompileOptions, QueryParams } from './compile-context';
import { compileReadPlan } from './compile-populate';

export type { CompileContext, CompileOptions, QueryParams } from './compile-context';
export { compileFields } from './compile-fields';

export function compileQuery(params: QueryParams, entity: EntityMetadata, metadata: Metadata, options: CompileOptions = {}): ReadPlan {
  const context: CompileContext = { metadata, options };
  const publicationState = compilePublicationState(params.publicationState, options.defaultPublicationState ?? 'live');
  return compileReadPlan(params, entity, context, publicationState);
}

export function compilePublicationState(value: unknown, fallback: PublicationState): PublicationState {
  if (value === undefined) return fallback;
  if (value === 'live' || value === 'preview') return value;
  throw new ValidationError('Invalid parameter publicationState: use "live" or "preview"');
}
