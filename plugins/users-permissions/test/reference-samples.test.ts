/**
 * Replays Strapi 4.26's users-permissions samples (shared/reference,
 * strapi4-samples-plugins 80-93, and strapi4-samples 40-45) in order on a
 * fresh example app and compares status and body exactly, once the values
 * that cannot repeat (JWTs, timestamps) are masked. Sample 87 is Strapi's
 * account-existence oracle (a 500 for a known email); we answer it as 88.
 * After the change of password (85), the samples go on with the JWT it
 * answered: the earlier one is revoked (password-change.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { EXAMPLE_APP, SHARED_REFERENCE, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { recording } from './fixture';

interface Sample {
  method: string;
  path: string;
  authorization?: string;
  body?: string;
  status: number;
  headers: Map<string, string>;
  responseBody: string;
}

function readSample(folder: string, prefix: string): Sample {
  const dir = path.join(SHARED_REFERENCE, folder);
  const file = fs.readdirSync(dir).find((name) => name.startsWith(`${prefix}-`));
  if (!file) throw new Error(`no sample ${prefix}`);
  const [request, response] = fs.readFileSync(path.join(dir, file), 'utf8').split('### RESPONSE');
  const requestLines = request.replace('### REQUEST', '').trim().split('\n');
  const [method, requestPath] = requestLines[0].split(' ');
  const authorization = requestLines.find((line) => line.startsWith('Authorization: '))?.slice('Authorization: Bearer '.length);
  const blank = requestLines.indexOf('');
  const body = blank >= 0 ? requestLines.slice(blank + 1).join('\n').trim() : undefined;
  const responseLines = response.trim().split('\n');
  const headers = new Map(responseLines.slice(1).filter((line) => /^[A-Za-z-]+: /.test(line)).map((line) => [line.split(': ')[0].toLowerCase(), line.slice(line.indexOf(': ') + 2)]));
  return { method, path: requestPath, authorization, body, status: Number(/HTTP\/1\.1 (\d{3})/.exec(responseLines[0])![1]), headers, responseBody: responseLines.pop()! };
}

/** JWTs and timestamps differ on every run; everything else must not. */
function mask(text: string): string {
  return text.replace(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, '<jwt>').replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<time>');
}

const PLUGIN_SAMPLES = ['80', '81', '82', '83', '84', '85', '86', '88', '89', '90', '91', '92', '93'];
const CORE_SAMPLES = ['40', '41', '42', '43', '44', '45'];

eachDatabase('users-permissions: Strapi v4 reference samples', (dialect) => {
  let app: TestApp;
  const tokens: Record<string, string> = {};
  const credential = (placeholder: string | undefined) => {
    if (placeholder === undefined) return undefined;
    if (placeholder === '<full-access API token>') return tokens.full;
    const jwt = /^<jwt from (\d+)-/.exec(placeholder);
    if (jwt) return tokens[jwt[1]];
    return placeholder;
  };
  const replay = async (folder: string, prefix: string) => {
    const sample = readSample(folder, prefix);
    const response = await app.request(sample.method, sample.path, { token: credential(sample.authorization), rawBody: sample.body || undefined });
    if (response.body && typeof response.body === 'object' && 'jwt' in response.body) {
      tokens[prefix] = response.body.jwt;
      // Deliberate difference: a change of password revokes the user's earlier JWTs (Strapi's stay valid), so
      // the client goes on with the token the change answered, as a real one does.
      const session = /^<jwt from (\d+)-/.exec(sample.authorization ?? '');
      if (sample.path === '/api/auth/change-password' && session) tokens[session[1]] = response.body.jwt;
    }
    return { sample, response };
  };
  before(async () => {
    app = recording(await startApp({ dialect, from: EXAMPLE_APP }));
    tokens.full = await app.fullAccessToken();
  });
  after(() => app?.stop());

  it('samples 80-93 (users, roles, password flows): same status and body', async () => {
    for (const prefix of PLUGIN_SAMPLES) {
      const { sample, response } = await replay('strapi4-samples-plugins', prefix);
      expect(response.status, `sample ${prefix}`).to.equal(sample.status);
      expect(mask(response.text), `sample ${prefix}`).to.equal(mask(sample.responseBody));
      if (sample.headers.has('x-ratelimit-limit')) expect(response.headers.get('x-ratelimit-limit'), `sample ${prefix}`).to.equal(sample.headers.get('x-ratelimit-limit'));
    }
  });

  it('sample 87 (forgot-password, known account) answers as sample 88 does for an unknown one', async () => {
    const { response } = await replay('strapi4-samples-plugins', '87');
    const unknown = readSample('strapi4-samples-plugins', '88');
    expect([response.status, response.text]).to.deep.equal([unknown.status, unknown.responseBody]);
  });

  it('samples 40-45 (register, login, duplicate, me, a role without the action): same status and body', async () => {
    for (const prefix of CORE_SAMPLES) {
      const { sample, response } = await replay('strapi4-samples', prefix);
      expect(response.status, `sample ${prefix}`).to.equal(sample.status);
      // Sample 40 registered the first user of its peer (id 1); here bob came first.
      expect(mask(response.text).replace(/"id":2,"username":"alice"/, '"id":1,"username":"alice"'), `sample ${prefix}`).to.equal(mask(sample.responseBody));
    }
  });
});
