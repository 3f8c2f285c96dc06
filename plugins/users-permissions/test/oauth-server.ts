/**
 * A small real OAuth2 authorization server for the third-party sign-in suites (and the Strapi peer recording):
 * `GET /authorize` approves at once as the account the test chose and redirects to the client's `redirect_uri` with
 * a single-use code and the `state` it was given; `POST /token` exchanges a code (client id, secret and redirect_uri
 * checked, as RFC 6749 §4.1.3 asks) for an access token; `GET /userinfo` answers the profile of a bearer token.
 * `hang` makes every endpoint accept the request and never answer (a provider that hangs).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OAuthAccount {
  username: string;
  email: string;
}

export interface TokenRequest {
  grant_type?: string;
  code?: string;
  client_id?: string;
  client_secret?: string;
  redirect_uri?: string;
}

export class OAuthServer {
  readonly clientId = 'tessera-client';
  readonly clientSecret = 'tessera-secret';
  /** The account `/authorize` signs in as. */
  account: OAuthAccount = { username: 'octo', email: 'octo@example.com' };
  hang = false;
  /** Characters of padding added to the token answer (a provider that answers too much). */
  tokenPadding = 0;
  /** Every `/authorize` query and `/token` form received, in order. */
  readonly authorizeQueries: Record<string, string>[] = [];
  readonly tokenRequests: TokenRequest[] = [];
  readonly userinfoTokens: string[] = [];
  private readonly codes = new Map<string, { account: OAuthAccount; redirectUri: string }>();
  private readonly tokens = new Map<string, OAuthAccount>();
  private readonly server: http.Server;
  private readonly hanging = new Set<http.ServerResponse>();

  private constructor(readonly port: number) {
    this.server = http.createServer((request, response) => void this.handle(request, response));
  }

  /** Listens on `port`, or on the first free one of this project's ports for test OAuth servers (1383–1389). */
  static async start(port?: number): Promise<OAuthServer> {
    const candidates = port === undefined ? [1383, 1384, 1385, 1386, 1387, 1388, 1389] : [port];
    for (const candidate of candidates) {
      const server = new OAuthServer(candidate);
      const listening = await new Promise<boolean>((resolve) => {
        server.server.once('error', () => resolve(false));
        server.server.listen(candidate, '127.0.0.1', () => resolve(true));
      });
      if (listening) return server;
    }
    throw new Error(`no free port among ${candidates.join(', ')} for the test OAuth server`);
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** An access token for `account`, as if issued to a frontend by the token endpoint. */
  issueToken(account: OAuthAccount): string {
    const token = crypto.randomBytes(16).toString('hex');
    this.tokens.set(token, account);
    return token;
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const body = await new Promise<string>((resolve) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => resolve(text));
    });
    if (this.hang) {
      this.hanging.add(response);
      return;
    }
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    if (request.method === 'GET' && url.pathname === '/authorize') {
      const query = Object.fromEntries(url.searchParams);
      this.authorizeQueries.push(query);
      if (query.client_id !== this.clientId || !query.redirect_uri) return json(400, { error: 'invalid_client' });
      const code = crypto.randomBytes(12).toString('hex');
      this.codes.set(code, { account: this.account, redirectUri: query.redirect_uri });
      const target = new URL(query.redirect_uri);
      target.searchParams.set('code', code);
      if (query.state !== undefined) target.searchParams.set('state', query.state);
      response.writeHead(302, { location: target.toString() });
      return void response.end();
    }
    if (request.method === 'POST' && url.pathname === '/token') {
      const form = Object.fromEntries(new URLSearchParams(body)) as TokenRequest;
      this.tokenRequests.push(form);
      const granted = form.code === undefined ? undefined : this.codes.get(form.code);
      if (form.client_id !== this.clientId || form.client_secret !== this.clientSecret) return json(401, { error: 'invalid_client' });
      if (form.grant_type !== 'authorization_code' || granted === undefined || granted.redirectUri !== form.redirect_uri) {
        return json(400, { error: 'invalid_grant', error_description: 'The code is wrong or expired' });
      }
      this.codes.delete(form.code as string);
      const answer = { access_token: this.issueToken(granted.account), token_type: 'bearer', scope: 'profile email' };
      return json(200, this.tokenPadding > 0 ? { ...answer, padding: 'x'.repeat(this.tokenPadding) } : answer);
    }
    if (request.method === 'GET' && url.pathname === '/userinfo') {
      const token = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      this.userinfoTokens.push(token);
      const account = this.tokens.get(token);
      if (account === undefined) return json(401, { error: 'invalid_token' });
      return json(200, { preferred_username: account.username, email: account.email });
    }
    json(404, { error: 'not_found' });
  }
}
