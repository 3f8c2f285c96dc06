/**
 * Schema `regex` validators run on request input, so they obey the rule of
 * issue 23: no pattern on request input can backtrack. A pattern the ReDoS
 * checker (recheck, loader/pattern-safety.ts) finds vulnerable stops the
 * boot, naming the attribute, the complexity and an attack input; any
 * pattern runs on at most MAX_PATTERN_INPUT characters. The `email` type is
 * a linear check, bounded at 254 characters.
 */
import { expect } from 'chai';
import { bootError, eachDatabase, startApp, type TestApp } from '@tessera/testing';

const NOTE = 'src/api/note/content-types/note/schema.json';

function note(attributes: Record<string, unknown>): Record<string, unknown> {
  return {
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false },
    attributes,
  };
}

describe('schema regex: a pattern that can backtrack stops the boot', function () {
  this.timeout(60_000);

  it('an exponential pattern (nested quantifiers) and a polynomial one (the old email pattern) are refused, named', async () => {
    for (const [regex, complexity] of [['^(a+)+$', 'exponential'], ['^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', 'polynomial (degree 2)']]) {
      const error = await bootError({ dialect: 'sqlite', files: { [NOTE]: note({ code: { type: 'string', regex } }) } });
      expect(error.name).to.equal('ConfigurationError');
      expect(error.message).to.contain(NOTE);
      expect(error.message).to.contain(`attribute "code": "regex" ${regex} can backtrack (${complexity} time, e.g. on "`);
    }
  });
});

eachDatabase('schema regex on request input', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startApp({
      dialect,
      files: { [NOTE]: note({ body: { type: 'text', regex: '^[a-z ]*$' }, code: { type: 'string', regex: '^[A-Z]{3}-\\d+$' }, contact: { type: 'email' } }) },
    });
    token = await app.fullAccessToken();
  });
  after(() => app?.stop());

  const post = (data: unknown) => app.post('/api/notes', { data }, { token });
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

  it('the email type is a linear check: the backtracking shape of the old pattern answers at once', async () => {
    const started = performance.now();
    const response = await post({ contact: `a@${'.'.repeat(240)} ` });
    expect(performance.now() - started).to.be.below(1000);
    expect(response.body).to.deep.equal(issue('contact', 'contact must be a valid email'));
    expect((await post({ contact: 'someone@example.com' })).status).to.equal(200);
  });
});
