/**
 * The content manager's entry routes answer as Strapi 4.26.2 does: the scenario of recordings/entries-scenario.js
 * (the panel's requests: create with relations and a component, list/search/sort/filter/page, find, update with
 * connect/disconnect, publish/unpublish, bulk actions, clone and auto-clone, delete, relation pickers, a single
 * type), replayed step by step on a fresh database, each answer equal to what the peer answered
 * (recordings/strapi-4.26.2-entries.json; timestamps aside).
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { normalise, registerFirstAdmin, startEntriesApp } from './entries-fixture';
import recording from './recordings/strapi-4.26.2-entries.json';

interface Recorded {
  title: string;
  method: string;
  path: string;
  body?: unknown;
  status: number;
  answer: unknown;
}

const STEPS = (recording as { recorded: Recorded[] }).recorded;

eachDatabase('content manager entries: recorded Strapi 4.26.2 answers', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startEntriesApp(dialect);
    token = await registerFirstAdmin(app);
  });
  after(() => app?.stop());

  for (const step of STEPS) {
    it(`${step.method} ${step.title}`, async () => {
      const response = await app.request(step.method, encodeURI(step.path), { token, body: step.body });
      expect({ status: response.status, answer: normalise(response.body) }).to.deep.equal({ status: step.status, answer: normalise(step.answer) });
    });
  }
});
