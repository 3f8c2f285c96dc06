/**
 * An article's cover set from the asset picker, as Strapi 4.26.2's panel does it (recordings/cover-scenario.js,
 * strapi-4.26.2-cover.json): the image uploaded from the media library (`POST /upload` with the admin's token, the
 * same file as on the peer), the picker's requests to the upload plugin (configuration, root files in both of its
 * sorts, root folders, a search, a type filter), the save with the file's id, the cover in the edit view and the
 * list, a file that does not exist refused, and the cover removed — every answer as Strapi's (hash and url aside),
 * but for the refusal's message: Tessera names the field and the missing id ("cover: file with id 99 does not
 * exist", path `cover`), as its REST and GraphQL writes do, where Strapi says "1 relation(s) of type
 * plugin::upload.file associated with this entity do not exist" (same status and error name).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { normalise, registerFirstAdmin, startEntriesApp } from './entries-fixture';
import recording from './recordings/strapi-4.26.2-cover.json';

interface Recorded {
  title: string;
  method: string;
  path: string;
  body?: unknown;
  status: number;
  answer: unknown;
}

const STEPS = (recording as { recorded: Recorded[] }).recorded;
const COVER = path.join(__dirname, 'fixtures/cover.png');

const MISSING_FILE = 'cover: file with id 99 does not exist';

/** The recorded answer, with Tessera's message for the missing file (see above). */
function expectedOf(step: Recorded): { status: number; answer: unknown } {
  if (step.title !== 'a cover that does not exist') return { status: step.status, answer: normalise(step.answer) };
  const error = { status: 400, name: 'ValidationError', message: MISSING_FILE, details: { errors: [{ path: ['cover'], message: MISSING_FILE, name: 'ValidationError' }] } };
  return { status: step.status, answer: { data: null, error } };
}

eachDatabase('content manager × media: a cover from the asset picker (Strapi 4.26.2)', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startEntriesApp(dialect);
    token = await registerFirstAdmin(app);
    const form = new FormData();
    form.append('files', new Blob([fs.readFileSync(COVER)], { type: 'image/png' }), 'cover.png');
    form.append('fileInfo', JSON.stringify({ name: 'cover.png', folder: null }));
    const uploaded = await fetch(`${app.url}/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(uploaded.status).to.equal(200);
  });
  after(() => app?.stop());

  for (const step of STEPS) {
    it(step.title, async () => {
      const response = await app.request(step.method, encodeURI(step.path), { token, body: step.body });
      expect({ status: response.status, answer: normalise(response.body) }).to.deep.equal(expectedOf(step));
    });
  }
});
