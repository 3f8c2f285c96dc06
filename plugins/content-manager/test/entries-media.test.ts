/**
 * An entry with media through the entry routes, as Strapi 4.26.2 answered (recordings/media-scenario.js,
 * strapi-4.26.2-media.json): the panel sends the file's id, answers carry the file with its folder. The file is
 * uploaded first through `POST /api/upload` with a full-access API token, as on the peer (hash and url aside).
 * One difference: Strapi files an API upload in its "API Uploads" folder (`folder` that folder, `folderPath` "/1");
 * Tessera's upload plugin files it at the library's root (`folder` null, `folderPath` "/"). A file uploaded from
 * the media library is answered as Strapi answers it (entries-cover.test.ts).
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { normalise, registerFirstAdmin, startEntriesApp } from './entries-fixture';
import recording from './recordings/strapi-4.26.2-media.json';

interface Recorded {
  title: string;
  method: string;
  path: string;
  body?: unknown;
  status: number;
  answer: unknown;
}

const STEPS = (recording as { recorded: Recorded[] }).recorded;

/** The recorded answer with the file at the library's root (see above). */
function atTheRoot(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, item: unknown) => {
    if (key !== 'cover' || typeof item !== 'object' || item === null) return item;
    return { ...item, folder: null, folderPath: '/' };
  });
}

eachDatabase('content manager entries: media (Strapi 4.26.2)', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startEntriesApp(dialect);
    token = await registerFirstAdmin(app);
    const form = new FormData();
    form.append('files', new Blob(['Notes for the cover.\n'], { type: 'text/plain' }), 'notes.txt');
    const uploaded = await fetch(`${app.url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${await app.fullAccessToken()}` }, body: form });
    expect(uploaded.status).to.equal(200);
  });
  after(() => app?.stop());

  for (const step of STEPS) {
    it(step.title, async () => {
      const response = await app.request(step.method, encodeURI(step.path), { token, body: step.body });
      expect({ status: response.status, answer: normalise(response.body) }).to.deep.equal({ status: step.status, answer: atTheRoot(normalise(step.answer)) });
    });
  }
});
