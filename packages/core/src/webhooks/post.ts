/**
 * One webhook POST over node's http(s), where the target policy
 * (target-policy.ts) is applied to the address actually connected to: a
 * literal address before connecting, a name inside the connection's own
 * look-up. Checking a name first and letting the client look it up again
 * would leave a window for a name re-pointed in between (DNS rebinding);
 * here the addresses checked are the ones used.
 *
 * No redirect is followed (http.request never does); the answer's body is
 * read only when the status is an error, and only its first kilobyte.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addressRefusal, type TargetPolicy } from './target-policy';

export interface PostAnswer {
  status: number;
  location?: string;
  /** The first kilobyte of an error answer's body (a 4xx or 5xx). */
  errorBody?: string;
}

/** Thrown (as the request's error) when the target is refused: never connected. */
export class TargetRefused extends Error {
  override readonly name = 'TargetRefused';
  readonly code = 'ETARGETREFUSED';
}

const ERROR_BODY_LIMIT = 1024;

/** A look-up that answers only addresses the policy allows: any refused address refuses the name. */
function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    const all: LookupAllOptions = { ...options, all: true };
    dnsLookup(hostname, all, (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (error) return callback(error, '');
      for (const { address } of addresses) {
        const refusal = addressRefusal(address, policy);
        if (refusal) return callback(new TargetRefused(`${hostname} resolves to ${refusal}`), '');
      }
      // What the caller asked for: every address, or the first.
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      callback(null, first!.address, first!.family);
    });
  };
}

export function post(url: URL, headers: Record<string, string>, body: string, policy: TargetPolicy, signal: AbortSignal): Promise<PostAnswer> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(host, policy);
    if (refusal) return Promise.reject(new TargetRefused(refusal));
  }
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<PostAnswer>((resolve, reject) => {
    const request = transport.request(
      url,
      { method: 'POST', headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, lookup: guardedLookup(policy), signal },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status < 400) {
          response.resume();
          response.on('end', () => resolve({ status, location: response.headers.location }));
          response.on('error', reject);
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => resolve({ status, errorBody: Buffer.concat(chunks).toString('utf8').slice(0, ERROR_BODY_LIMIT) });
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= ERROR_BODY_LIMIT) {
            response.destroy();
            done();
          }
        });
        response.on('end', done);
        response.on('error', () => done());
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
