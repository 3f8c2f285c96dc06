/**
 * The GraphQL endpoint: a Koa handler around graphql-js's `parse`,
 * `validate` and `execute` (no Apollo). POST (JSON body, or a multipart one
 * carrying files: multipart.ts) and GET (query string; queries only).
 * Answers `application/json`, or `application/graphql-response+json` when
 * the client accepts it.
 *
 *   (the route: authenticate once, a 401 in Strapi's REST envelope when that fails) → CSRF (csrf.ts) → size and batch checks → parse (cached) → GraphQL validation → limits → execute
 *
 * Parse and validation results are cached per document text, and a query's
 * execution plan per operation of a cached document (execute/): a repeated
 * query costs only its resolvers and the completion of their values.
 */
import type Koa from 'koa';
import {
  getOperationAST,
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import type { App, AuthState } from '@tessera/core';
import { csrfRefusal } from './csrf';
import { formatExecutionError, requestError } from './errors';
import { multipartPayload, type MultipartPayload } from './multipart';
import { MAX_INPUT_DEPTH, tooDeepVariable } from './variable-depth';
import { createContext } from '../resolve/request-scope';
import { Executor } from '../execute/executor';

export interface EndpointOptions {
  maxDocumentSize: number;
  batchRequests: boolean;
  maxBatchSize: number;
  /** Rules run after GraphQL's own: depth, aliases, fields, introspection. */
  limitRules: ValidationRule[];
}

interface GraphqlRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

type Prepared = { document: DocumentNode } | { errors: GraphQLFormattedError[] };

type Answer = { status: number; body: { data?: unknown; errors?: GraphQLFormattedError[] } };

const MAX_CACHED_DOCUMENTS = 500;
/** A bound on tokens stops a huge document before it is turned into a tree. */
const MAX_TOKENS = 10000;
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

export class GraphqlEndpoint {
  private readonly documents = new Map<string, Prepared>();
  private readonly executor = new Executor();

  constructor(
    private readonly app: App,
    private readonly schema: () => GraphQLSchema,
    private readonly options: EndpointOptions,
  ) {}

  async handle(ctx: Koa.Context): Promise<void> {
    const mediaType = acceptsGraphqlResponse(ctx) ? GRAPHQL_RESPONSE : 'application/json';
    const answer = await this.answer(ctx);
    ctx.status = answer.status;
    ctx.body = answer.body;
    // After the body: Koa types an object body as `application/json; charset=utf-8`.
    if (mediaType === GRAPHQL_RESPONSE) ctx.set('Content-Type', `${mediaType}; charset=utf-8`);
  }

  private async answer(ctx: Koa.Context): Promise<{ status: number; body: unknown }> {
    const csrf = csrfRefusal(ctx);
    if (csrf !== null) return badRequest(csrf);
    const read = payloadOf(ctx);
    if ('refused' in read) return badRequest(read.refused);
    const { payload } = read;
    if (Array.isArray(payload)) {
      if (!this.options.batchRequests) return badRequest('Batched requests are not enabled on this endpoint');
      if (payload.length === 0 || payload.length > this.options.maxBatchSize) return badRequest(`A batch holds 1 to ${this.options.maxBatchSize} operations`);
      const answers: Answer[] = [];
      for (const item of payload) answers.push(await this.one(ctx, item));
      return { status: answers.every((answer) => answer.status === 200) ? 200 : 400, body: answers.map((answer) => answer.body) };
    }
    return this.one(ctx, payload);
  }

  private async one(ctx: Koa.Context, payload: unknown): Promise<Answer> {
    if (typeof payload !== 'object' || payload === null) return badRequest('Send { "query": "..." } as JSON (POST) or in the query string (GET)');
    const request = payload as GraphqlRequest;
    if (typeof request.query !== 'string' || request.query.trim() === '') return badRequest('The request has no GraphQL query');
    if (request.query.length > this.options.maxDocumentSize) return badRequest(`The query is larger than ${this.options.maxDocumentSize} characters`);
    const variables = parseVariables(request.variables);
    if (variables instanceof GraphQLError) return badRequest(variables.message);
    if (request.operationName !== undefined && request.operationName !== null && typeof request.operationName !== 'string') {
      return badRequest('operationName must be a string');
    }

    const prepared = this.prepare(request.query);
    if ('errors' in prepared) return { status: 400, body: { errors: prepared.errors } };
    const operationName = (request.operationName as string | undefined) ?? undefined;
    const operation = getOperationAST(prepared.document, operationName);
    if (operation && operation.operation !== 'query' && ctx.method === 'GET') {
      ctx.set('Allow', 'POST');
      return { status: 405, body: { errors: [requestError(`Only queries may be sent with GET; send this ${operation.operation} with POST`, 'BAD_USER_INPUT')] } };
    }
    const tooDeep = operation && variables ? tooDeepVariable(this.schema(), operation, variables) : undefined;
    if (tooDeep !== undefined) return badRequest(`Variable "$${tooDeep}" is nested more than ${MAX_INPUT_DEPTH} levels deep`);

    // The caller was authenticated once, by the route (`auth: 'per-operation'`), before anything here.
    const context = createContext(this.app, ctx, ctx.state.auth as AuthState);
    const result = await this.executor.execute(
      { schema: this.schema(), document: prepared.document, variableValues: variables, operationName, contextValue: context },
      operation,
    );
    const body: Answer['body'] = {};
    if (result.errors) body.errors = result.errors.map((error) => formatExecutionError(error, this.app.log));
    if ('data' in result) body.data = result.data;
    // No `data` at all: the request could not start (a bad variable, an unknown operation name).
    return { status: 'data' in result && result.data !== undefined ? 200 : 400, body };
  }

  /** Parsed and validated once per distinct document. */
  private prepare(query: string): Prepared {
    const cached = this.documents.get(query);
    if (cached) return cached;
    const prepared = this.parseAndValidate(query);
    // Oldest first out: a flood of distinct documents cannot grow the cache.
    if (this.documents.size >= MAX_CACHED_DOCUMENTS) this.documents.delete(this.documents.keys().next().value as string);
    this.documents.set(query, prepared);
    return prepared;
  }

  private parseAndValidate(query: string): Prepared {
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: MAX_TOKENS });
    } catch (error) {
      // The parser recurses per nested value: a document of brackets within the size limit can still exhaust the stack.
      const syntaxError = error instanceof GraphQLError ? error : new GraphQLError(error instanceof RangeError ? 'The query is nested too deeply' : String(error));
      return { errors: [requestError(syntaxError.message, 'GRAPHQL_PARSE_FAILED', syntaxError)] };
    }
    const schema = this.schema();
    // GraphQL's rules first: cyclic fragments are rejected here, before any rule that follows spreads.
    let errors = validate(schema, document, specifiedRules);
    if (errors.length === 0) errors = validate(schema, document, this.options.limitRules);
    if (errors.length > 0) return { errors: errors.map((error) => requestError(error.message, 'GRAPHQL_VALIDATION_FAILED', error)) };
    return { document };
  }
}

/**
 * Content negotiation only when the client names the GraphQL media type:
 * otherwise (no Accept header, or only wildcards) JSON comes first anyway,
 * and most requests skip parsing the header.
 */
function acceptsGraphqlResponse(ctx: Koa.Context): boolean {
  const accept = ctx.get('accept');
  return accept.toLowerCase().includes(GRAPHQL_RESPONSE) && ctx.accepts('application/json', GRAPHQL_RESPONSE) === GRAPHQL_RESPONSE;
}

function badRequest(message: string): Answer {
  return { status: 400, body: { errors: [requestError(message, 'BAD_USER_INPUT')] } };
}

/** GET: the query string; POST: the JSON body, or a multipart one with its files put in the variables. */
function payloadOf(ctx: Koa.Context): MultipartPayload {
  if (ctx.method === 'GET') return { payload: fromQueryString(ctx.query as Record<string, unknown>) };
  // The header is read before type-is parses it: JSON requests are the usual ones.
  if (/multipart/i.test(ctx.get('content-type')) && ctx.is('multipart')) return multipartPayload(ctx);
  return { payload: (ctx.request as { body?: unknown }).body };
}

function fromQueryString(query: Record<string, unknown>): GraphqlRequest {
  return { query: query.query, variables: query.variables, operationName: query.operationName };
}

function parseVariables(value: unknown): Record<string, unknown> | undefined | GraphQLError {
  if (value === undefined || value === null || value === '') return undefined;
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return new GraphQLError('variables must be a JSON object');
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return new GraphQLError('variables must be a JSON object');
  return parsed as Record<string, unknown>;
}
