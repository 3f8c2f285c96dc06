/**
 * Replays recorded Strapi answers against Tessera. A replay file
 * (`replays/*.json`, written by scripts/strapi-peer/record.js) holds a seed,
 * created in order through REST on an empty database, and requests with
 * Strapi's status and body. Tessera must give the same, up to timestamps
 * (the two servers wrote the entries at different times).
 *
 * Where Strapi 4.26 answers 500 to what an earlier 4.x understood, the entry
 * names an `equivalent` request in a form 4.26 reads, and Tessera's answer to
 * the original must be Strapi's answer to the equivalent. `tessera` overrides
 * the expected status where Tessera deliberately differs (a 400 for a 500).
 */
import fs from 'node:fs';
import type { TestApp } from '@tessera/testing';

export interface RecordedAnswer {
  status: number;
  body: unknown;
}

export interface ReplayRequest {
  note?: string;
  path: string;
  auth?: 'token';
  strapi: RecordedAnswer;
  equivalent?: { why: string; path: string; strapi: RecordedAnswer };
  tessera?: { status: number; why: string };
}

export interface ReplayFile {
  strapi: string;
  recordedAt: string;
  seed: Array<{ type: string; data: Record<string, unknown> }>;
  requests: ReplayRequest[];
}

export function readReplay(file: string): ReplayFile {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as ReplayFile;
}

export async function seedReplay(app: TestApp, replay: ReplayFile, token: string): Promise<void> {
  for (const [index, entry] of replay.seed.entries()) {
    const response = await app.post(`/api/${entry.type}`, { data: entry.data }, { token });
    if (response.status !== 200) throw new Error(`seed ${index} (${entry.type}): ${response.status} ${response.text}`);
  }
}

/** What Tessera must answer: Strapi's answer, its equivalent's when 4.26 fails, or only a status Tessera chose. */
export function expectedAnswer(request: ReplayRequest): { status: number; body?: unknown } {
  if (request.tessera) return { status: request.tessera.status };
  if (request.equivalent) return request.equivalent.strapi;
  return request.strapi;
}

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Timestamps → a placeholder, so answers recorded at another time compare. */
export function withoutTimestamps(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimestamps);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutTimestamps(item)]));
  }
  return typeof value === 'string' && TIMESTAMP.test(value) ? '<timestamp>' : value;
}
