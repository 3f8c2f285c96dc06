/**
 * The HTTP server: Koa with the error envelope outermost (every failure is
 * written as `{ data: null, error: { status, name, message, details } }`),
 * then the app's global middleware stack (`middlewares/stack.ts`: security
 * headers, CORS, request log, body parser, static files, the app's own), then
 * the router the kernel mounts routes on. Unknown routes fall through to a
 * 404 in the same envelope.
 */
import http from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import { ConfigurationError, MethodNotAllowedError, NotFoundError, ValidationError, toErrorBody } from '@tessera/errors';
import type { Logger } from '../logger';
import { notFoundDetails } from './route-index';
import { installQueryParser } from './query-string';
import { installResponseHelpers } from './response-helpers';
import { errorEnvelope } from './middlewares/errors';
import { routeDispatcher } from './route-dispatch';

export interface HttpConfig {
  /**
   * How many proxies in front of us append to X-Forwarded-For (`server.proxy`: `true` is one, a number is that
   * many; 0 trusts none). The client address is the entry that many places from the right — never the leftmost,
   * which the client writes itself.
   */
  proxyHops: number;
  /**
   * `api.rest.prefix`, in development only: a 404 under it names the closest content-API route. Undefined outside
   * development, where the hint would map the app's routes for anyone probing it: a plain 404 then.
   */
  routeHintsUnder?: string;
  /** On stop, how long in-flight requests may run before their sockets are closed (`server.shutdownTimeout`, ms). */
  shutdownTimeoutMs?: number;
}

export class HttpServer {
  readonly koa = new Koa();
  readonly router = new Router();
  /**
   * The Node server, made with the app as Strapi makes its `strapi.server.httpServer`: before `register`, so
   * plugins can attach to it at boot (strapi-plugin-io's socket.io server). Koa's handler is composed at the
   * first request, once every middleware is in.
   */
  readonly node: http.Server;
  private listening = false;
  /** close() has begun (apart from `listening`: an app served through callback() never listens, and keeps its keep-alive). */
  private stopping = false;
  private readonly sockets = new Set<import('node:net').Socket>();

  constructor(
    private readonly config: HttpConfig,
    private readonly logger: Logger,
  ) {
    this.koa.proxy = config.proxyHops > 0;
    this.koa.maxIpsCount = config.proxyHops;
    this.koa.silent = true;
    installQueryParser(this.koa);
    installResponseHelpers(this.koa);
    // An answer written once close() has begun says `Connection: close`, so Node ends its socket after it and the
    // client does not send another request on it. Without it Node kept the socket of a request in flight at close()
    // open for keep-alive, and the stop waited for the client to drop it (undici: 4 s) or for `keepAliveTimeout`.
    this.koa.use((ctx, next) =>
      next().then(() => {
        if (this.stopping) ctx.set('Connection', 'close');
      }),
    );
    this.koa.use(errorEnvelope(logger));
    let handler: http.RequestListener | undefined;
    this.node = http.createServer((request, response) => {
      handler ??= this.koa.callback();
      return handler(request, response);
    });
    this.node.keepAliveTimeout = 5000;
    this.node.on('clientError', (error: NodeJS.ErrnoException, socket) => answerClientError(error, socket));
    this.node.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** Adds middlewares to the Koa app, in order (the global stack, and `strapi.server.use(fn)`). */
  use(middlewares: Koa.Middleware | Koa.Middleware[]): void {
    for (const middleware of Array.isArray(middlewares) ? middlewares : [middlewares]) this.koa.use(middleware);
  }

  /** Mounts the router; called once every plugin has added its routes. */
  finalize(): void {
    // Runs last on the way back: nothing answered → 404; a known path with another
    // method (or a method no route uses) → 405, keeping the `Allow` header the router set.
    this.koa.use(async (ctx, next) => {
      await next();
      if (ctx.body !== undefined) return;
      if (ctx.status === 405 || ctx.status === 501) throw new MethodNotAllowedError();
      if (ctx.status === 404) {
        const prefix = this.config.routeHintsUnder;
        throw new NotFoundError(undefined, prefix === undefined ? {} : notFoundDetails(this.router, ctx.method, ctx.path, prefix));
      }
    });
    this.koa.use(routeDispatcher(this.router));
    this.koa.use(this.router.allowedMethods());
  }

  callback(): http.RequestListener {
    return this.koa.callback();
  }

  async listen(port: number, host: string): Promise<number> {
    const server = this.node;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.listening = true;
    const address = server.address();
    return typeof address === 'object' && address ? address.port : port;
  }

  /** Stops accepting, lets in-flight requests finish (their answers close their sockets), closes idle keep-alive sockets. */
  async close(): Promise<void> {
    if (!this.listening) return;
    this.listening = false;
    this.stopping = true;
    const server = this.node;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => {
      for (const socket of this.sockets) socket.destroy();
    }, this.config.shutdownTimeoutMs ?? 10_000);
    await closed;
    clearTimeout(timer);
  }
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

/** `server.proxy`: false (no proxy), true (one proxy in front), or how many proxies append to X-Forwarded-For. */
export function proxyHops(value: unknown): number {
  if (value === false || value === undefined || value === null) return 0;
  if (value === true) return 1;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  throw new ConfigurationError('server.proxy must be true, false or the number of proxies in front of the server', 'config/server.ts');
}
