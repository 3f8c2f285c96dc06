/**
 * Schema `regex` validators run on request input, so they obey the rule of
 * issue 23: no pattern on request input can backtrack. A vulnerable one
 * stops the boot (schema-validation.test.ts); a safe one still applies, on
 * at most MAX_PATTERN_INPUT characters. The `email` type is
 * a linear check, bounded at 254 characters.
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const SCHEMA = 'src/api/patterned/content-types/patterned/schema.json';

/** Two patterns that cannot backtrack, on a text and a string, and an email. */
const PATTERNED = {
  kind: 'collectionType',
  collectionName: 'patterned',
  info: { singularName: 'patterned', pluralName: 'patterneds', displayName: 'Patterned' },
  options: { draftAndPublish: false },
  attributes: { body: { type: 'text', regex: '^[a-z ]*$' }, code: { type: 'string', regex: '^[A-Z]{3}-\\d+$' }, contact: { type: 'email' } },
};

eachDatabase('schema regex on request input', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startApp({
      dialect,
      files: { [SCHEMA]: PATTERNED },
    });
    token = await app.fullAccessToken();
  });
  after(() => app?.stop());

  const post = (data: unknown) => app.post('/api/patterneds', { data }, { token });
  const issue = (path: string, message: string) => ({
    data: null,
    error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path: [path], message, name: 'ValidationError' }] } },
  });

  it('a safe pattern boots and still applies', async () => {
    expect((await post({ code: 'ABC-12', body: 'plain words' })).status).to.equal(200);
    expect((await post({ code: 'abc-12' })).body).to.deep.equal(issue('code', 'code must match the following: "/^[A-Z]{3}-\\d+$/"'));
  });

  it('a value longer than 10,000 characters is not matched against a pattern: a 400 naming the limit', async () => {
    expect((await post({ body: 'a'.repeat(10_000) })).status).to.equal(200);
    expect((await post({ body: 'a'.repeat(10_001) })).body).to.deep.equal(issue('body', 'body must be at most 10000 characters to be matched against its pattern'));
  });

  it('the email type is a linear check: the backtracking shape of the old pattern is answered', async () => {
    // That the check cannot backtrack is decided without a clock by the ReDoS suite (scripts/redos), which runs
    // recheck on every pattern in the source; here, the answer to the old attack string.
    const response = await post({ contact: `a@${'.'.repeat(240)} ` });
    expect(response.body).to.deep.equal(issue('contact', 'contact must be a valid email'));
    expect((await post({ contact: 'someone@example.com' })).status).to.equal(200);
  });
});
