/**
 * `strapi::body`: parses JSON, form, text and multipart bodies (koa-body, with
 * formidable for multipart; `application/json` itself through co-body, the
 * parser koa-body calls) on POST, PUT, PATCH and DELETE, within limits:
 * `jsonLimit` (default `server.body.jsonLimit`, else 1mb), `formLimit` and
 * `textLimit` (default: the JSON limit; `formLimit` also bounds multipart
 * fields), `formidable.maxFileSize` (all files of one request, default
 * 200mb; lower on the paths `app.bodyParsing` bounds: body-parsing.ts). Over a
 * limit → 413 PayloadTooLargeError. Uploaded files land in a
 * temporary folder (under `formidable.uploadDir`, default the OS's) as
 * `ctx.request.files`; the folder is deleted when the request is over, so a
 * plugin keeping a file moves it elsewhere.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import type { KoaBodyMiddlewareOptions } from 'koa-body';
import { ConfigurationError, PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '@tessera/errors';
import { getConfig } from '../../config/load-config';
import type { Builtin, BuiltinConfig, BuiltinContext } from './builtin';
import type { BodyParsing } from '../body-parsing';
import { failStalledMultipartParser, type MultipartParserClass } from '../multipart-stall';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const DEFAULT_MAX_FILE_SIZE = 200 * 1024 * 1024;

export const body: Builtin = {
  keys: ['jsonLimit', 'formLimit', 'textLimit', 'formidable', 'multipart', 'includeUnparsed', 'encoding', 'jsonStrict'],
  create(config, context) {
    return lazyBodyParser(bodyOptions(config, context));
  },
};

interface BodyOptions {
  parser: Partial<KoaBodyMiddlewareOptions>;
  /**
   * What plugins declared (read per request, so a declaration's timing does not matter): the paths whose
   * multipart bodies their route parses itself, and the paths whose files are uploads, bounded by the upload
   * size (a GraphQL upload stopped while streaming, as a REST one is).
   */
  declared: BodyParsing;
  /** Where each multipart request's temporary folder is made. */
  uploadRoot: string;
}

function bodyOptions(config: BuiltinConfig, context: BuiltinContext): BodyOptions {
  const size = (key: string, value: unknown) => byteSize(value, `strapi::body: ${key}`, context.file);
  const jsonLimit = size('jsonLimit', config.jsonLimit ?? getConfig<unknown>(context.app.config, 'server.body.jsonLimit', '1mb'));
  const formLimit = config.formLimit === undefined ? jsonLimit : size('formLimit', config.formLimit);
  const textLimit = config.textLimit === undefined ? jsonLimit : size('textLimit', config.textLimit);
  const formidable = (config.formidable ?? {}) as Record<string, unknown>;
  const uploadRoot = path.resolve(context.app.dir, String(formidable.uploadDir ?? os.tmpdir()));
  if (!fs.existsSync(uploadRoot)) throw new ConfigurationError(`strapi::body: formidable.uploadDir ${uploadRoot} does not exist`, context.file);
  const parser: Partial<KoaBodyMiddlewareOptions> = {
    ...pick(config, ['includeUnparsed', 'encoding', 'jsonStrict']),
    jsonLimit,
    formLimit,
    textLimit,
    multipart: config.multipart !== false,
    formidable: {
      ...formidable,
      maxFileSize: formidable.maxFileSize === undefined ? DEFAULT_MAX_FILE_SIZE : size('formidable.maxFileSize', formidable.maxFileSize),
      maxFieldsSize: formidable.maxFieldsSize === undefined ? formLimit : size('formidable.maxFieldsSize', formidable.maxFieldsSize),
    },
    parsedMethods: [...BODY_METHODS] as KoaBodyMiddlewareOptions['parsedMethods'],
    onError: (error: Error) => {
      throw bodyError(error);
    },
  };
  return { parser, uploadRoot, declared: context.app.bodyParsing };
}

/**
 * koa-body (with its multipart and schema dependencies) is a large share of
 * the boot's module loading; most requests carry no body. It is required on
 * the first request that may carry one.
 *
 * A multipart request gets its own temporary folder, removed with whatever is
 * left in it when the request is over. Formidable deletes a file itself when
 * parsing fails, but races its own write stream (the file can appear after the
 * delete); a removed folder cannot be written into.
 */
const UTF8 = new Set(['utf-8', 'utf8']);

/**
 * The parser decodes text bodies as UTF-8 whatever their declared charset, so
 * a body in another one would be read wrong and accepted: refuse it (JSON is
 * UTF-8 by definition, RFC 8259). Multipart parts carry their own types.
 */
function refuseForeignCharset(ctx: Koa.Context): void {
  const charset = ctx.request.charset.toLowerCase();
  if (charset === '' || UTF8.has(charset) || !ctx.is('json', 'urlencoded', 'text')) return;
  throw new UnsupportedMediaTypeError(`Unsupported charset "${charset.slice(0, 40)}": send the request body as UTF-8`);
}

function lazyBodyParser(options: BodyOptions): Koa.Middleware {
  let createParser: ((options: Partial<KoaBodyMiddlewareOptions>) => Koa.Middleware) | undefined;
  let parser: Koa.Middleware | undefined;
  const parse: Koa.Middleware = async (ctx, next) => {
    if (isPlainJson(ctx)) {
      refuseForeignCharset(ctx);
      ctx.request.body = await parseJson(ctx, options.parser);
      return next();
    }
    if (ctx.is('multipart') && options.declared.isClaimed(ctx.path)) return next();
    refuseForeignCharset(ctx);
    if (!createParser) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { koaBody } = require('koa-body') as typeof import('koa-body');
      failStalledMultipartParser(koaBodyFormidable());
      createParser = (parserOptions) => koaBody(parserOptions) as unknown as Koa.Middleware;
    }
    if (!options.parser.multipart || !ctx.is('multipart')) {
      parser ??= createParser(options.parser);
      return parser(ctx, next);
    }
    const uploadDir = await fs.promises.mkdtemp(path.join(options.uploadRoot, 'tessera-upload-'));
    try {
      const maxFileSize = fileLimitOf(ctx.path, options);
      await createParser({ ...options.parser, formidable: { ...options.parser.formidable, uploadDir, maxFileSize } })(ctx, next);
    } finally {
      await fs.promises.rm(uploadDir, { recursive: true, force: true, maxRetries: 3 });
    }
  };
  // GET and HEAD, most requests, pass straight on: no async step of their own.
  return (ctx, next) => (BODY_METHODS.has(ctx.method) ? parse(ctx, next) : next());
}

/** The formidable koa-body parses multipart bodies with: the copy it resolves, wherever it is installed. */
function koaBodyFormidable(): MultipartParserClass {
  const formidablePath = require.resolve('formidable', { paths: [path.dirname(require.resolve('koa-body'))] });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(formidablePath) as { MultipartParser: MultipartParserClass }).MultipartParser;
}

/**
 * `Content-Type: application/json` exactly, with a body: the commonest
 * request body (every GraphQL POST). It is parsed as koa-body's JSON branch
 * parses it (co-body, with the same options and errors) without koa-body's
 * four content-type matches, each a parse of the header. Any other spelling
 * or JSON type goes through koa-body as before.
 */
function isPlainJson(ctx: Koa.Context): boolean {
  // koa's `request.type`: the header as sent, up to its parameters.
  return ctx.request.type === 'application/json' && hasBody(ctx.req.headers);
}

/** type-is's test (without it, koa-body parses nothing): a length or a transfer encoding announces a body. */
function hasBody(headers: Koa.Request['headers']): boolean {
  return headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(headers['content-length']));
}

type CoBody = typeof import('co-body');
let coBody: CoBody | undefined;
/** koa-body's `includeUnparsed` key: the raw text beside the parsed body. */
const UNPARSED = Symbol.for('unparsedBody');

/** co-body's JSON parse with koa-body's defaults (UTF-8, strict) and this parser's limit; failures as bodyError makes them. */
async function parseJson(ctx: Koa.Context, parser: Partial<KoaBodyMiddlewareOptions>): Promise<unknown> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  coBody ??= require('co-body') as CoBody;
  const includeUnparsed = parser.includeUnparsed === true;
  let parsed: unknown;
  try {
    // A `__proto__` key is dropped, not refused: Strapi 4.26.2's co-body 5 parses it as an ordinary key (a top-level one is
    // ignored, one in `data` is a 500 there), and removed it can set no prototype anywhere downstream.
    // (co-body 6.2's option; its type declarations predate it.)
    const options: NonNullable<Parameters<CoBody['json']>[1]> & { onProtoPoisoning: 'remove' } = {
      encoding: parser.encoding ?? 'utf-8',
      limit: parser.jsonLimit,
      strict: parser.jsonStrict ?? true,
      returnRawBody: includeUnparsed,
      onProtoPoisoning: 'remove',
    };
    parsed = await coBody.json(ctx, options);
  } catch (error) {
    throw bodyError(error instanceof Error ? error : new Error(String(error)));
  }
  if (!includeUnparsed) return parsed;
  const { parsed: body, raw } = parsed as { parsed: Record<PropertyKey, unknown> | undefined; raw: string };
  const withRaw = body || {};
  withRaw[UNPARSED] = raw;
  return withRaw;
}

/** The tightest limit on a request's file bytes: the parser's own, or a tighter one declared for its path. */
function fileLimitOf(requestPath: string, options: BodyOptions): number {
  const limit = Number(options.parser.formidable?.maxFileSize);
  return Math.min(limit, options.declared.fileSizeLimit(requestPath) ?? limit);
}

/**
 * Body parser failures. co-body marks unparsable JSON with status 400 but not
 * `expose`, which would read as a 500: it is the client's error, said without
 * the parser's internals. Size limits (413) pass through unchanged. An
 * unsupported Content-Encoding is a 415; a body its Content-Encoding cannot
 * decode (zlib errors carry no status) is a 400. Formidable's errors carry
 * `httpCode`: 413 for its size and count limits, anything else is a 400.
 */
function bodyError(error: Error): Error {
  const formidableStatus = (error as { httpCode?: unknown }).httpCode;
  if (typeof formidableStatus === 'number') {
    if (formidableStatus === 413) return new PayloadTooLargeError();
    if (formidableStatus === 415) return new UnsupportedMediaTypeError();
    return new ValidationError('Invalid multipart body');
  }
  const status = (error as { status?: number }).status;
  if (status === 400 || error instanceof SyntaxError) return new ValidationError('Invalid JSON in the request body');
  if (status === 415) return new UnsupportedMediaTypeError();
  if (status === undefined && /^(Z_|ERR_)/.test(String((error as { code?: unknown }).code))) return new ValidationError('Invalid request body');
  return error;
}

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `1mb`, `512kb`, `100` (bytes) → bytes; anything else stops the boot. */
function byteSize(value: unknown, what: string, file: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.floor(value);
  // Trimmed first: a pattern with whitespace runs on both sides of an optional unit backtracks.
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(String(value).trim());
  if (!match) throw new ConfigurationError(`${what} must be a size such as 1mb, 512kb or a number of bytes, got ${JSON.stringify(value)}`, file);
  return Math.floor(Number(match[1]) * UNITS[(match[2] ?? 'b').toLowerCase()]);
}

function pick(config: BuiltinConfig, keys: string[]): BuiltinConfig {
  return Object.fromEntries(keys.filter((key) => config[key] !== undefined).map((key) => [key, config[key]]));
}
