/**
 * An Author — Strapi's default role, with the permissions a new database gives it: create, read, update and delete
 * with the `admin::is-creator` condition and no publish — sees and edits only the entries it created, through the list, search, find, update, delete, bulk
 * actions, draft counts and both relation pickers, as Strapi 4.26.2 answered (recordings/author-scenario.js,
 * recorded in strapi-4.26.2-author.json). Two answers differ on purpose:
 * - a bulk delete naming its own entry and another's: Strapi 4.26.2 fails with a 500 (its `deleteMany` joins
 *   `admin_users` into a DELETE, which SQLite cannot run); Tessera deletes the entries the Author may delete;
 * - cloning an entry it may not read: Strapi checks only the create permission and copies the other admin's entry
 *   (a read of it, by the copy); Tessera refuses it (403), since the Author may not read the source.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { normalise, registerFirstAdmin, roleId, signInAdmin, startEntriesApp } from './entries-fixture';
import recording from './recordings/strapi-4.26.2-author.json';

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
const TESSERA: Record<string, { status: number; answer: unknown }> = {
  "bulk delete its own and the admin's": { status: 200, answer: { count: 1 } },
  "clone the admin's": { status: 403, answer: FORBIDDEN },
};

/**
 * The Author as Strapi's invitation and registration make one: an active admin with the Author role, whose
 * permissions are the defaults the admin plugin gave the role on the new database (as Strapi 4.26.2 gives them).
 */
async function signInAuthor(app: TestApp): Promise<string> {
  return signInAdmin(app, { email: 'ann.author@example.com', firstname: 'Ann', lastname: 'Author', password: 'Author1234' }, await roleId(app, 'strapi-author'));
}

eachDatabase('content manager entries: an Author edits only its own entries (Strapi 4.26.2)', (dialect) => {
  let app: TestApp;
  const tokens: Record<string, string> = {};
  before(async () => {
    app = await startEntriesApp(dialect);
    tokens.admin = await registerFirstAdmin(app);
  });
  after(() => app?.stop());

  for (const step of STEPS) {
    it(`${step.as ?? 'admin'}: ${step.title}`, async () => {
      // The Author is made once the admin's own entries exist (its id is 2, as on the peer).
      if (step.as === 'author' && !tokens.author) tokens.author = await signInAuthor(app);
      const response = await app.request(step.method, encodeURI(step.path), { token: tokens[step.as ?? 'admin'], body: step.body });
      const expected = TESSERA[step.title] ?? { status: step.status, answer: normalise(step.answer) };
      expect({ status: response.status, answer: normalise(response.body) }).to.deep.equal(expected);
    });
  }

  it("never answered a field outside the Author's read permission, nor another's entry in a list", async () => {
    const list = await app.get('/content-manager/collection-types/api::article.article?page=1&pageSize=100', { token: tokens.author });
    expect(list.body.results.map((entry: { createdBy: { id: number } }) => entry.createdBy.id)).to.deep.equal(list.body.results.map(() => 2));
  });
});
