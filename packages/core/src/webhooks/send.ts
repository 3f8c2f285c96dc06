/**
 * One HTTP attempt: POST the stored body to the webhook with Strapi v4's
 * headers (`defaultHeaders`, the webhook's own, `X-Strapi-Event`,
 * `Content-Type`) plus Tessera's id, attempt and signature headers (post.ts
 * sends it). Bounded by a timeout; the answer's body is read only for an
 * error message, and only its first kilobyte.
 *
 * Redirects are not followed: a 3xx is the attempt's answer, a failed one.
 * Following it would send the payload, the signature and the webhook's own
 * headers (an API key) to wherever the receiver points — loopback and
 * link-local addresses included — and count that as delivered.
 *
 * The target policy (target-policy.ts) is applied to the address connected
 * to (post.ts): a refused target is a failed attempt that never connects.
 */
import { SIGNATURE_HEADER, signatureHeader } from './signature';
import { post, TargetRefused } from './post';
import type { TargetPolicy } from './target-policy';
import type { Webhook } from './types';

export interface Attempt {
  event: string;
  /** The JSON body, exactly as signed. */
  body: string;
  eventId?: string;
  deliveryId?: number;
  attempt?: number;
}

export interface AttemptResult {
  ok: boolean;
  /** The HTTP status, or null when no answer came (refused, timed out). */
  status: number | null;
  /** Why it failed: the answer's first kilobyte or the network error. */
  message?: string;
  /** When no answer came: the error in full (`connect ECONNREFUSED 127.0.0.1:19`), for the panel's test trigger. */
  reason?: string;
  durationMs: number;
}


export function attemptHeaders(webhook: Webhook, defaultHeaders: Record<string, string>, attempt: Attempt): Record<string, string> {
  const headers: Record<string, string> = { ...defaultHeaders, ...webhook.headers, 'X-Strapi-Event': attempt.event, 'Content-Type': 'application/json' };
  if (attempt.eventId) headers['X-Tessera-Event-Id'] = attempt.eventId;
  if (attempt.deliveryId !== undefined) headers['X-Tessera-Delivery'] = String(attempt.deliveryId);
  if (attempt.attempt !== undefined) headers['X-Tessera-Attempt'] = String(attempt.attempt);
  if (webhook.secret) headers[SIGNATURE_HEADER] = signatureHeader(webhook.secret, attempt.body);
  return headers;
}

export interface AttemptOptions {
  timeoutMs: number;
  targets: TargetPolicy;
  /** Aborts the attempt early (the dispatcher stopping). */
  cancel?: AbortSignal;
}

export async function sendAttempt(webhook: Webhook, headers: Record<string, string>, body: string, options: AttemptOptions): Promise<AttemptResult> {
  const { timeoutMs, cancel } = options;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
  try {
    const answer = await post(new URL(webhook.url), headers, body, options.targets, signal);
    if (answer.status >= 300 && answer.status < 400) {
      return { ok: false, status: answer.status, message: `redirected${answer.location ? ` to ${answer.location.slice(0, 200)}` : ''}: redirects are not followed`, durationMs: elapsed() };
    }
    if (answer.status >= 200 && answer.status < 300) return { ok: true, status: answer.status, durationMs: elapsed() };
    return { ok: false, status: answer.status, message: answer.errorBody ?? '', durationMs: elapsed() };
  } catch (error) {
    if (error instanceof TargetRefused) return { ok: false, status: null, message: `refused: ${error.message}`, reason: `refused: ${error.message}`, durationMs: elapsed() };
    if (timeout.aborted) return { ok: false, status: null, message: `no answer within ${timeoutMs} ms`, reason: `no answer within ${timeoutMs} ms`, durationMs: elapsed() };
    const failure = error as NodeJS.ErrnoException;
    return { ok: false, status: null, message: failure.code ?? failure.message, reason: failure.message, durationMs: elapsed() };
  }
}
