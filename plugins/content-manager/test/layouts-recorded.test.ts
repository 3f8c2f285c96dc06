/**
 * The content manager's model routes answer as Strapi 4.26.2 answered them (recordings/strapi-4.26.2-layouts.json,
 * recorded on shared/strapi4-peer from layouts-scenario.js): init, content types, components, settings, the
 * generated configurations, saving views (and Strapi's refusals, message for message), and uid fields; replayed
 * step by step on a fresh database of each kind.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { registerAdmin, seedArticles, startPeerApp } from './fixture';
import { comparable, type RecordedStep } from './recorded';
import recording from './recordings/strapi-4.26.2-layouts.json';

const STEPS = recording.recorded as RecordedStep[];

eachDatabase('content-manager model routes (Strapi 4.26.2 answers)', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startPeerApp(dialect);
    await seedArticles(app);
    token = await registerAdmin(app);
  });
  after(() => app?.stop());

  for (const step of STEPS) {
    it(`${step.method} ${step.path}: ${step.title}`, async () => {
      const response = await app.request(step.method, encodeURI(step.path), { body: step.body, token });
      expect(response.status).to.equal(step.status);
      expect(comparable(step.path, response.body)).to.deep.equal(comparable(step.path, step.answer));
    });
  }
});
