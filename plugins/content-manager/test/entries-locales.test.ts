/**
 * A localized type through the entry routes (the fixture's `page`, locales en — the default —, fr and de): entries
 * created in the request's locale, lists per locale, and an editor whose permissions hold only `fr` reads, edits,
 * creates and deletes only French entries — as Strapi 4.26.2 answered (recordings/locale-scenario.js,
 * strapi-4.26.2-locale.json), but for one step: Strapi creates an empty entry when the editor creates in a locale it
 * may not (`creates in English`), Tessera refuses it (403), so that entry is not in the last list either.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { createRole, grant, normalise, registerFirstAdmin, signInAdmin, startEntriesApp, type Grant } from './entries-fixture';
import recording from './recordings/strapi-4.26.2-locale.json';

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
const FORBIDDEN = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };

const PERMISSIONS: Grant[] = ['create', 'read', 'update', 'delete'].map((action) => ({
  action: `plugin::content-manager.explorer.${action}`,
  subject: 'api::page.page',
  properties: action === 'delete' ? { locales: ['fr'] } : { fields: ['title', 'slug', 'body', 'order', 'category'], locales: ['fr'] },
  conditions: [],
}));

/** What Tessera answers where it refuses what Strapi did (the entry Strapi created, id 4, is not there). */
function expectedOf(step: Recorded): { status: number; answer: unknown } {
  if (step.title === 'creates in English') return { status: 403, answer: FORBIDDEN };
  const answer = normalise(step.answer) as { results?: Array<{ id: number }>; pagination?: { total: number; pageCount: number } };
  if (step.title === 'what is left, in every locale' && answer.results && answer.pagination) {
    const results = answer.results.filter((entry) => entry.id !== 4);
    return { status: step.status, answer: { results, pagination: { ...answer.pagination, total: results.length } } };
  }
  return { status: step.status, answer };
}

eachDatabase('content manager entries: locales (Strapi 4.26.2)', (dialect) => {
  let app: TestApp;
  const tokens: Record<string, string> = {};
  before(async () => {
    app = await startEntriesApp(dialect, { i18n: true });
    tokens.admin = await registerFirstAdmin(app);
  });
  after(() => app?.stop());

  for (const step of STEPS) {
    it(`${step.as ? 'French editor' : 'admin'}: ${step.title}`, async () => {
      if (step.as && !tokens.author) {
        const role = await createRole(app, 'French editor');
        await grant(app, role, PERMISSIONS);
        tokens.author = await signInAdmin(app, { email: 'fran@example.com', firstname: 'Fran', lastname: 'Editor', password: 'Editor1234' }, role);
      }
      const response = await app.request(step.method, encodeURI(step.path), { token: tokens[step.as ?? 'admin'], body: step.body });
      expect({ status: response.status, answer: normalise(response.body) }).to.deep.equal(expectedOf(step));
    });
  }
});
