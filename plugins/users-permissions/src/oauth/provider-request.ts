/**
 * Requests to a sign-in provider (its token endpoint, its user API), bounded: each gives up after `timeout`
 * milliseconds and refuses an answer past `maxBytes`, so a provider that hangs or floods costs one clear error,
 * never a request that waits forever or a process that fills its memory. Answers are parsed as grant and purest
 * parse them: JSON, else form-encoded.
 */
import { ProviderRequestError } from './provider-error';

export interface ProviderRequestLimits {
  /** Milliseconds one request to a provider may take, answer included. */
  timeout: number;
  /** Bytes a provider's answer may hold. */
  maxBytes: number;
}

export interface ProviderRequest {
  method?: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** Sent form-encoded. */
  form?: Record<string, string>;
}

export interface ProviderAnswer {
  status: number;
  /** The parsed body: an object (JSON or form fields), or the text when it is neither. */
  body: unknown;
}

/** A provider's user API, as a provider's `authCallback` calls it: an error for a non-2xx answer, as purest's request. */
export type ProviderFetch = (request: ProviderRequest) => Promise<ProviderAnswer>;

export async function providerRequest(request: ProviderRequest, limits: ProviderRequestLimits): Promise<ProviderAnswer> {
  const url = new URL(request.url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ProviderRequestError(`The provider URL ${url.origin} is not http(s)`);
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'tessera', ...request.headers };
  let body: string | undefined;
  if (request.form !== undefined) {
    body = new URLSearchParams(request.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  let response: Response;
  try {
    response = await fetch(url, { method: request.method ?? 'GET', headers, body, redirect: 'error', signal: AbortSignal.timeout(limits.timeout) });
  } catch (error) {
    throw new ProviderRequestError(timedOut(error) ? `The provider did not answer within ${limits.timeout} ms` : `The provider could not be reached: ${describe(error)}`);
  }
  const text = await readBounded(response, limits);
  return { status: response.status, body: parseBody(text, response.headers.get('content-type') ?? '') };
}

/** `providerRequest`, refusing a non-2xx answer with the provider's error body. */
export async function providerRequestOk(request: ProviderRequest, limits: ProviderRequestLimits): Promise<ProviderAnswer> {
  const answer = await providerRequest(request, limits);
  if (answer.status < 200 || answer.status >= 300) throw new ProviderRequestError(`The provider answered ${answer.status}`, answer.body);
  return answer;
}

async function readBounded(response: Response, limits: ProviderRequestLimits): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > limits.maxBytes) {
    await response.body?.cancel();
    throw new ProviderRequestError(`The provider's answer is larger than ${limits.maxBytes} bytes`);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limits.maxBytes) {
        await reader.cancel();
        throw new ProviderRequestError(`The provider's answer is larger than ${limits.maxBytes} bytes`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ProviderRequestError) throw error;
    throw new ProviderRequestError(timedOut(error) ? `The provider did not answer within ${limits.timeout} ms` : `The provider's answer broke off: ${describe(error)}`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string, contentType: string): unknown {
  const form = () => Object.fromEntries(new URLSearchParams(text));
  if (/x-www-form-urlencoded/.test(contentType)) return form();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Some providers answer form fields as text/plain or text/html (grant's note); anything else stays text.
    return /json/.test(contentType) || !text.includes('=') ? text : form();
  }
}

function timedOut(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
  return cause || (error instanceof Error ? error.message : String(error));
}
