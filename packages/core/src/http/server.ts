/**
 * The HTTP server: Koa with one error middleware that writes every failure
 * as `{ data: null, error: { status, name, message, details } }`, a request
 * logger, a bounded JSON body parser, and the router the kernel mounts routes
 * on. Unknown routes fall through to a 404 in the same envelope.
 */
import http from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import type { KoaBodyMiddlewareOptions } from 'koa-body';
import { MethodNotAllowedError, NotFoundError, UnsupportedMediaTypeError, ValidationError, isUnexpected, normalizeError, toErrorBody } from '@tessera/errors';
import type { Logger } from '../logger';

export interface HttpConfig {
  /** Largest JSON (and form) body accepted, e.g. `1mb`. */
  jsonLimit: string;
  /** Log one line per request. */
  logRequests: boolean;
  /** Trust X-Forwarded-* headers (behind a proxy). */
  proxy: boolean;
}

export class HttpServer {
  readonly koa = new Koa();
  readonly router = new Router();
  private server: http.Server | undefined;
  private readonly sockets = new Set<import('node:net').Socket>();

  constructor(
    private readonly config: HttpConfig,
    private readonly logger: Logger,
  ) {
    this.koa.proxy = config.proxy;
    this.koa.silent = true;
    this.koa.use(this.errors());
    if (config.logRequests) this.koa.use(this.requestLog());
    this.koa.use(lazyBodyParser(config.jsonLimit));
  }

  /** Mounts the router; called once every plugin has added its routes. */
  finalize(): void {
    // Runs last on the way back: nothing answered → 404; a known path with another
    // method (or a method no route uses) → 405, keeping the `Allow` header the router set.
    this.koa.use(async (ctx, next) => {
      await next();
      if (ctx.body !== undefined) return;
      if (ctx.status === 405 || ctx.status === 501) throw new MethodNotAllowedError();
      if (ctx.status === 404) throw new NotFoundError();
    });
    this.koa.use(this.router.routes());
    this.koa.use(this.router.allowedMethods());
  }

  callback(): http.RequestListener {
    return this.koa.callback();
  }

  async listen(port: number, host: string): Promise<number> {
    const server = http.createServer(this.koa.callback());
    server.keepAliveTimeout = 5000;
    server.on('clientError', (error: NodeJS.ErrnoException, socket) => answerClientError(error, socket));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const address = server.address();
    return typeof address === 'object' && address ? address.port : port;
  }

  /** Stops accepting, lets in-flight requests finish, closes idle keep-alive sockets. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => {
      for (const socket of this.sockets) socket.destroy();
    }, 5000);
    await closed;
    clearTimeout(timer);
  }

  private errors(): Koa.Middleware {
    return async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        if (isUnexpected(error)) this.logger.error(`${ctx.method} ${ctx.path} failed`, error);
        const known = normalizeError(error);
        ctx.status = known.status;
        ctx.body = toErrorBody(known);
      }
    };
  }

  private requestLog(): Koa.Middleware {
    return async (ctx, next) => {
      const started = process.hrtime.bigint();
      try {
        await next();
      } finally {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        this.logger.http(`${ctx.method} ${ctx.url} ${ctx.status} ${ms.toFixed(1)}ms`);
      }
    };
  }
}

/**
 * Body parser failures. co-body marks unparsable JSON with status 400 but not
 * `expose`, which would read as a 500: it is the client's error, said without
 * the parser's internals. Size limits (413) pass through unchanged. An
 * unsupported Content-Encoding is a 415; a body its Content-Encoding cannot
 * decode (zlib errors carry no status) is a 400.
 */
function bodyError(error: Error): Error {
  const status = (error as { status?: number }).status;
  if (status === 400 || error instanceof SyntaxError) return new ValidationError('Invalid JSON in the request body');
  if (status === 415) return new UnsupportedMediaTypeError();
  if (status === undefined && /^(Z_|ERR_)/.test(String((error as { code?: unknown }).code))) return new ValidationError('Invalid request body');
  return error;
}

/**
 * Requests Node rejects before Koa sees them (a URL or headers beyond the
 * parser's limit, a malformed request line) still get the JSON error
 * envelope, as a 400 ValidationError, instead of Node's bare status line.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const message = error.code === 'HPE_HEADER_OVERFLOW' ? 'Request URL or headers too large' : 'Malformed HTTP request';
  const body = JSON.stringify(toErrorBody(new ValidationError(message)));
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * koa-body (with its multipart and schema dependencies) is a large share of
 * the boot's module loading; most requests carry no body. It is required on
 * the first request that may carry one.
 */
function lazyBodyParser(limit: string): Koa.Middleware {
  let parser: Koa.Middleware | undefined;
  return (ctx, next) => {
    if (!BODY_METHODS.has(ctx.method)) return next();
    if (!parser) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { koaBody } = require('koa-body') as typeof import('koa-body');
      const options: Partial<KoaBodyMiddlewareOptions> = {
        jsonLimit: limit,
        formLimit: limit,
        textLimit: limit,
        parsedMethods: [...BODY_METHODS] as KoaBodyMiddlewareOptions['parsedMethods'],
        onError: (error: Error) => {
          throw bodyError(error);
        },
      };
      parser = koaBody(options) as unknown as Koa.Middleware;
    }
    return parser(ctx, next);
  };
}
