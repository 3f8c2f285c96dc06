/**
 * One HTTP attempt: POST the stored body to the webhook with Strapi v4's
 * headers (`defaultHeaders`, the webhook's own, `X-Strapi-Event`,
 * `Content-Type`) plus Tessera's id, attempt and signature headers. Bounded
 * by a timeout; the answer's body is read only for an error message, and
 * only its first kilobyte.
 *
 * Redirects are not followed: a 3xx is the attempt's answer, a failed one.
 * Following it would send the payload, the signature and the webhook's own
 * headers (an API key) to wherever the receiver points — loopback and
 * link-local addresses included — and count that as delivered.
 *
 * The target is checked against the target policy (target-policy.ts) before
 * each attempt, its name resolved then: a refused one is a failed attempt
 * that never connects.
 */
import { SIGNATURE_HEADER, signatureHeader } from './signature';
import { targetRefusal, type TargetPolicy } from './target-policy';
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

const ERROR_BODY_LIMIT = 1024;

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
  const refusal = await targetRefusal(webhook.url, options.targets);
  if (refusal) return { ok: false, status: null, message: `refused: ${refusal}`, reason: `refused: ${refusal}`, durationMs: elapsed() };
  try {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
    const response = await fetch(webhook.url, { method: 'POST', headers, body, signal, redirect: 'manual' });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const location = response.headers.get('location');
      return { ok: false, status: response.status, message: `redirected${location ? ` to ${location.slice(0, 200)}` : ''}: redirects are not followed`, durationMs: elapsed() };
    }
    if (response.ok) {
      await response.body?.cancel();
      return { ok: true, status: response.status, durationMs: elapsed() };
    }
    return { ok: false, status: response.status, message: await firstBytes(response), durationMs: elapsed() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const timedOut = (error as Error).name === 'TimeoutError';
    const message = timedOut ? `no answer within ${timeoutMs} ms` : (cause?.code ?? cause?.message ?? (error as Error).message);
    return { ok: false, status: null, message, reason: timedOut ? message : (cause?.message ?? (error as Error).message), durationMs: elapsed() };
  }
}

async function firstBytes(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ERROR_BODY_LIMIT) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, ERROR_BODY_LIMIT);
}
