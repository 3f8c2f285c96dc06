/**
 * A role with field permissions (read: `title`, `tags`, `seo.metaTitle`; update: `title`; tags: `name`; no
 * categories) never receives another field — in the list, an entry, a write's answer, the relation pickers — and
 * writes only the fields it may update; sorts and filters on fields it may not read are dropped, as Strapi 4.26.2
 * answered (recordings/reviewer-scenario.js, strapi-4.26.2-reviewer.json).
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { createRole, grant, normalise, registerFirstAdmin, signInAdmin, startEntriesApp, type Grant } from './entries-fixture';
import recording from './recordings/strapi-4.26.2-reviewer.json';

interface Recorded {
  title: string;
  method: string;
  path: string;
  body?: unknown;
  as?: 'author';
  status: number;
  answer: unknown;
}

const STEPS = (recording as { recorded: Recorded[] }).recorded;

const PERMISSIONS: Grant[] = [
  { action: 'plugin::content-manager.explorer.read', subject: 'api::article.article', properties: { fields: ['title', 'tags', 'seo.metaTitle'] }, conditions: [] },
  { action: 'plugin::content-manager.explorer.update', subject: 'api::article.article', properties: { fields: ['title'] }, conditions: [] },
  { action: 'plugin::content-manager.explorer.read', subject: 'api::tag.tag', properties: { fields: ['name'] }, conditions: [] },
];

eachDatabase('content manager entries: field permissions (Strapi 4.26.2)', (dialect) => {
  let app: TestApp;
  const tokens: Record<string, string> = {};
  before(async () => {
    app = await startEntriesApp(dialect);
    tokens.admin = await registerFirstAdmin(app);
  });
  after(() => app?.stop());

  for (const step of STEPS) {
    it(`${step.as ? 'reviewer' : 'admin'}: ${step.title}`, async () => {
      if (step.as && !tokens.author) {
        const role = await createRole(app, 'Reviewer');
        await grant(app, role, PERMISSIONS);
        tokens.author = await signInAdmin(app, { email: 'rita@example.com', firstname: 'Rita', lastname: 'Reviewer', password: 'Reviewer1234' }, role);
      }
      const response = await app.request(step.method, encodeURI(step.path), { token: tokens[step.as ?? 'admin'], body: step.body });
      expect({ status: response.status, answer: normalise(response.body) }).to.deep.equal({ status: step.status, answer: normalise(step.answer) });
    });
  }

  it('keeps the fields it may not read out of every answer, and out of clones it may not make', async () => {
    const clone = await app.post('/content-manager/collection-types/api::article.article/clone/1', { title: 'Copy' }, { token: tokens.author });
    expect(clone.status).to.equal(403);
    const searched = await app.get('/content-manager/collection-types/api::article.article?page=1&pageSize=10&_q=Not%20for%20reviewers', { token: tokens.author });
    expect(searched.text).to.not.contain('Not for reviewers');
  });
});
