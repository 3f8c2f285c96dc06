/**
 * A new locale version of an entry through the content manager and i18n's admin routes, as Strapi 4.26.2's panel
 * makes one (recordings/i18n-journey-scenario.js, strapi-4.26.2-i18n-journey.json): the list per locale, the
 * non-localized fields of the entry the new version comes from, the save with `locale` and `relatedEntityId`
 * (Strapi's i18n content-manager middleware), its refusals, a shared field written through one version, and an
 * editor whose permissions hold only `fr` making a French version.
 *
 * Where Tessera answers otherwise:
 * - after a shared field (`order`) is written through the French version, Strapi answers that version with its
 *   English localization as it was before (its i18n copies the value to the group after the answer is read);
 *   Tessera copies it inside the write, so the answer shows the English version's new value — the value Strapi's
 *   next read shows too (`reaches the English entry`);
 * - the French editor saving a German version: Strapi creates it (its answer hides the fields, the entry holds them)
 *   and links it to the group; Tessera refuses (403, nothing written), so the last read has no German version.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { createRole, grant, normalise, registerFirstAdmin, signInAdmin, startEntriesApp, type Grant } from './entries-fixture';
import recording from './recordings/strapi-4.26.2-i18n-journey.json';

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

const PERMISSIONS: Grant[] = ['create', 'read', 'update', 'delete'].map((action) => ({
  action: `plugin::content-manager.explorer.${action}`,
  subject: 'api::page.page',
  properties: action === 'delete' ? { locales: ['fr'] } : { fields: ['title', 'slug', 'body', 'order', 'category'], locales: ['fr'] },
  conditions: [],
}));

const FORBIDDEN = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };

/** What Tessera answers: the recorded answer, but for the steps above. */
function expectedOf(step: Recorded): { status: number; answer: unknown } {
  const answer = normalise(step.answer) as { order?: number; localizations?: Array<Record<string, unknown>> };
  switch (step.title) {
    case 'the shared field written through the French version':
      return { status: step.status, answer: { ...answer, localizations: answer.localizations?.map((other) => ({ ...other, order: answer.order })) } };
    case 'saves a German version (not permitted)':
      return { status: 403, answer: FORBIDDEN };
    case 'the English-only entry now has French':
      return { status: step.status, answer: { ...answer, localizations: answer.localizations?.filter((other) => other.locale !== 'de') } };
    default:
      return { status: step.status, answer };
  }
}

eachDatabase('content manager × i18n: a new locale version of an entry (Strapi 4.26.2)', (dialect) => {
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
