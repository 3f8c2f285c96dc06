/**
 * A real HTTP receiver for webhook tests: records every request (headers,
 * raw body, parsed JSON) and answers with the statuses it is told to, in
 * order (`replies`), then with `status`. It can be stopped and started again
 * on the same port, as a receiver that goes down and comes back.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  at: number;
}

export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  /** Statuses for the next requests, in order; afterwards every request gets `status`. */
  replies: number[] = [];
  status = 200;
  /** Waits this long before answering (a slow receiver). */
  delayMs = 0;
  /** While set, answers wait until it resolves (a receiver that hangs; see `hold`). */
  private gate: Promise<void> | undefined;
  private server: http.Server | undefined;
  private constructor(public port: number) {}

  static async start(port = 0): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(port);
    await receiver.listen();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async listen(): Promise<void> {
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
        this.requests.push({ method: request.method ?? '', path: request.url ?? '', headers, body, json, at: Date.now() });
        const status = this.replies.shift() ?? this.status;
        const answer = () => setTimeout(() => response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : `refused with ${status}`), this.delayMs);
        if (this.gate) void this.gate.then(answer);
        else answer();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Requests from now on get no answer until the returned function is called. */
  hold(): () => void {
    let release: () => void = () => undefined;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.gate = undefined;
      release();
    };
  }

  /** Stops listening (connections refused until `listen` again). */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Resolves once `count` requests (matching `filter`) have arrived; the test's timeout bounds the wait. */
  async waitFor(count: number, filter: (request: ReceivedRequest) => boolean = () => true): Promise<ReceivedRequest[]> {
    for (;;) {
      const matching = this.requests.filter(filter);
      if (matching.length >= count) return matching;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
