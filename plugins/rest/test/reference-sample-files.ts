/**
 * The recorded Strapi 4.26.2 samples of ../shared/reference/strapi4-samples:
 * one request and Strapi's answer per file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { SHARED_REFERENCE, type TestApp } from '@tessera/testing';

export interface Sample {
  method: string;
  path: string;
  status: number;
  body: string;
}

const SAMPLES = path.join(SHARED_REFERENCE, 'strapi4-samples');

export function readSample(prefix: string): Sample {
  const file = fs.readdirSync(SAMPLES).find((name) => name.startsWith(`${prefix}-`));
  if (!file) throw new Error(`no sample ${prefix}`);
  const text = fs.readFileSync(path.join(SAMPLES, file), 'utf8');
  const [request, response] = text.split('### RESPONSE');
  const [method, requestPath] = request.replace('### REQUEST', '').trim().split('\n')[0].split(' ');
  const status = Number(/HTTP\/1\.1 (\d{3})/.exec(response)![1]);
  const body = response.trim().split('\n').pop()!;
  return { method, path: requestPath, status, body };
}

/** Samples Tessera answers byte for byte as Strapi did. */
export const IDENTICAL = ['01', '02', '03', '04', '05', '10', '15', '20', '21', '23'];

/** One test per identical sample: the app's answer has Strapi's status and body, byte for byte. */
export function replayIdentical(app: () => TestApp): void {
  for (const prefix of IDENTICAL) {
    it(`sample ${prefix}: same status and body`, async () => {
      const sample = readSample(prefix);
      const response = await app().request(sample.method, sample.path);
      expect(response.status).to.equal(sample.status);
      expect(response.text).to.equal(sample.body);
    });
  }
}
