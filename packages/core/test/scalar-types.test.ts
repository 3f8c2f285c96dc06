/**
 * Every Strapi v4 scalar type round-trips through REST and the database with
 * its exact value, and every constraint answers a 400 ValidationError naming
 * the field.
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const SAMPLE = {
  kind: 'collectionType',
  collectionName: 'samples',
  info: { singularName: 'sample', pluralName: 'samples', displayName: 'Sample' },
  options: { draftAndPublish: false },
  attributes: {
    aString: { type: 'string' },
    aText: { type: 'text' },
    aRichtext: { type: 'richtext' },
    anEmail: { type: 'email' },
    aPassword: { type: 'password' },
    aUid: { type: 'uid', targetField: 'aString' },
    anEnum: { type: 'enumeration', enum: ['alpha', 'beta', 'gamma'] },
    anInteger: { type: 'integer' },
    aBiginteger: { type: 'biginteger' },
    aFloat: { type: 'float' },
    aDecimal: { type: 'decimal' },
    aDate: { type: 'date' },
    aTime: { type: 'time' },
    aDatetime: { type: 'datetime' },
    aTimestamp: { type: 'timestamp' },
    aBoolean: { type: 'boolean' },
    aJson: { type: 'json' },
    secretNote: { type: 'string', private: true },
  },
};

const RULES = {
  kind: 'collectionType',
  collectionName: 'rules',
  info: { singularName: 'rule', pluralName: 'rules', displayName: 'Rule' },
  options: { draftAndPublish: false },
  attributes: {
    title: { type: 'string', required: true, minLength: 3, maxLength: 10 },
    code: { type: 'string', unique: true, regex: '^[A-Z]{3}-\\d+$' },
    score: { type: 'integer', min: 1, max: 5 },
    ratio: { type: 'decimal', min: 0.5, max: 2.5 },
    level: { type: 'enumeration', enum: ['low', 'high'], default: 'low' },
    contact: { type: 'email' },
    count: { type: 'integer', default: 7 },
    active: { type: 'boolean', default: true },
    label: { type: 'string', default: 'untitled' },
    big: { type: 'biginteger' },
    day: { type: 'date' },
    at: { type: 'time' },
    when: { type: 'datetime' },
  },
};

const VALUES = {
  aString: 'Grüße ✓ "quoted"',
  aText: 'line one\nline two\ttabbed',
  aRichtext: '# Heading\n\n**bold** and `code`',
  anEmail: 'someone@example.org',
  aUid: 'a-slug_1.2~x',
  anEnum: 'beta',
  anInteger: -2147483648,
  aBiginteger: '9007199254740993',
  aFloat: 3.25,
  aDecimal: 12.5,
  aDate: '2024-02-29',
  aTime: '13:45:30.123',
  aDatetime: '2024-03-01T10:20:30.456Z',
  aTimestamp: '1999-12-31T23:59:59.999Z',
  aBoolean: true,
  aJson: { nested: { list: [1, 'two', null, true, { deep: 1.5 }] }, empty: {}, text: 'ünïcode' },
};

type ErrorIssue = { path: string[]; message: string; name: string };

function validationBody(issues: Array<[string, string]>) {
  const errors: ErrorIssue[] = issues.map(([field, message]) => ({ path: [field], message, name: 'ValidationError' }));
  return {
    data: null,
    error: {
      status: 400,
      name: 'ValidationError',
      message: errors.length === 1 ? errors[0].message : `${errors.length} errors occurred`,
      details: { errors },
    },
  };
}

eachDatabase('scalar attribute types', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startApp({
      dialect,
      files: {
        'src/api/sample/content-types/sample/schema.json': SAMPLE,
        'src/api/rule/content-types/rule/schema.json': RULES,
      },
    });
    token = await app.fullAccessToken();
  });
  after(() => app.stop());

  const post = (path: string, data: unknown) => app.post(path, { data }, { token });

  describe('round trips', () => {
    it('returns every type with its exact value on create, get one and list', async () => {
      const created = await post('/api/samples', { ...VALUES, aPassword: 'hunter22', secretNote: 'hidden' });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const { id, attributes } = created.body.data;
      expect(id).to.be.a('number');
      const { createdAt, updatedAt, ...values } = attributes;
      expect(values).to.deep.equal(VALUES);
      expect(createdAt).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(updatedAt).to.equal(createdAt);

      const fetched = await app.get(`/api/samples/${id}`, { token });
      expect(fetched.status).to.equal(200);
      expect(fetched.body).to.deep.equal({ data: { id, attributes }, meta: {} });

      const listed = await app.get('/api/samples', { token });
      expect(listed.body.data).to.deep.equal([{ id, attributes }]);
    });

    it('stores nulls and clears values with null on update', async () => {
      const created = await post('/api/samples', { aString: 'to clear', anInteger: 5, aJson: [1, 2], aBoolean: false, aDate: '2000-01-01' });
      expect(created.status).to.equal(200);
      expect(created.body.data.attributes).to.include({ aString: 'to clear', anInteger: 5, aBoolean: false, aText: null, aDatetime: null });
      expect(created.body.data.attributes.aJson).to.deep.equal([1, 2]);
      const updated = await app.put(`/api/samples/${created.body.data.id}`, { data: { anInteger: null, aJson: null, aBoolean: null, aDate: null } }, { token });
      expect(updated.status).to.equal(200);
      expect(updated.body.data.attributes).to.include({ aString: 'to clear', anInteger: null, aJson: null, aBoolean: null, aDate: null });
    });

    it('casts what JSON cannot carry: numeric strings, epoch numbers, times without seconds', async () => {
      const created = await post('/api/samples', { anInteger: '12', aFloat: '0.5', aDecimal: '7.25', aBiginteger: 42, aTime: '08:05', aDatetime: 0, aBoolean: 'false' });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body.data.attributes).to.include({
        anInteger: 12,
        aFloat: 0.5,
        aDecimal: 7.25,
        aBiginteger: '42',
        aTime: '08:05:00.000',
        aDatetime: '1970-01-01T00:00:00.000Z',
        aBoolean: false,
      });
    });

    it('never returns private attributes or passwords, in any response', async () => {
      const created = await post('/api/samples', { aString: 'private', aPassword: 'hunter22', secretNote: 'hidden' });
      const id = created.body.data.id;
      const responses = [created, await app.get(`/api/samples/${id}`, { token }), await app.get('/api/samples', { token })];
      responses.push(await app.put(`/api/samples/${id}`, { data: { aPassword: 'changed1' } }, { token }));
      // It was stored, though.
      const [row] = await app.app.db.sql.raw('SELECT a_password, secret_note FROM samples WHERE id = ?', [id]);
      expect(row.secret_note).to.equal('hidden');
      expect(row.a_password).to.be.a('string').and.not.equal('');
      responses.push(await app.delete(`/api/samples/${id}`, { token }));
      for (const response of responses) {
        expect(response.status).to.equal(200);
        expect(response.text).to.not.contain('hunter22');
        expect(response.text).to.not.contain('changed1');
        expect(response.text).to.not.contain('hidden');
        expect(response.text).to.not.contain('aPassword');
        expect(response.text).to.not.contain('secretNote');
      }
    });
  });

  describe('constraints', () => {
    it('applies default values on create only', async () => {
      const created = await post('/api/rules', { title: 'defaults' });
      expect(created.status).to.equal(200);
      expect(created.body.data.attributes).to.include({ level: 'low', count: 7, active: true, label: 'untitled', code: null, score: null });
      const updated = await app.put(`/api/rules/${created.body.data.id}`, { data: { label: 'named' } }, { token });
      expect(updated.body.data.attributes).to.include({ level: 'low', count: 7, active: true, label: 'named' });
      const cleared = await app.put(`/api/rules/${created.body.data.id}`, { data: { count: null } }, { token });
      expect(cleared.body.data.attributes.count).to.equal(null);
    });

    it('requires required attributes (missing, null, empty)', async () => {
      expect((await post('/api/rules', { score: 3 })).body).to.deep.equal(validationBody([['title', 'title must be defined.']]));
      expect((await post('/api/rules', { title: null })).body).to.deep.equal(validationBody([['title', 'title must be defined.']]));
      const created = await post('/api/rules', { title: 'keep' });
      const update = await app.put(`/api/rules/${created.body.data.id}`, { data: { title: null } }, { token });
      expect(update.status).to.equal(400);
      expect(update.body).to.deep.equal(validationBody([['title', 'title must be defined.']]));
    });

    it('reports every problem at once, required first, like Strapi', async () => {
      const response = await post('/api/rules', { score: 'abc' });
      expect(response.status).to.equal(400);
      expect(response.body).to.deep.equal(
        validationBody([
          ['title', 'title must be defined.'],
          ['score', 'score must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).'],
        ]),
      );
    });

    it('enforces unique attributes on create and update', async () => {
      const first = await post('/api/rules', { title: 'first', code: 'ABC-1' });
      expect(first.status).to.equal(200);
      const second = await post('/api/rules', { title: 'second', code: 'ABC-1' });
      expect(second.status).to.equal(400);
      expect(second.body).to.deep.equal(validationBody([['code', 'This attribute must be unique']]));
      const other = await post('/api/rules', { title: 'other', code: 'ABC-2' });
      const clash = await app.put(`/api/rules/${other.body.data.id}`, { data: { code: 'ABC-1' } }, { token });
      expect(clash.body).to.deep.equal(validationBody([['code', 'This attribute must be unique']]));
      // Saving an entry with its own unique value is fine.
      const same = await app.put(`/api/rules/${first.body.data.id}`, { data: { code: 'ABC-1', title: 'first!' } }, { token });
      expect(same.status).to.equal(200);
      const count = await app.app.entityService.count('api::rule.rule', { filters: { code: { $startsWith: 'ABC-' } } });
      expect(count).to.equal(2);
    });

    it('enforces minLength, maxLength and regex', async () => {
      expect((await post('/api/rules', { title: 'ab' })).body).to.deep.equal(validationBody([['title', 'title must be at least 3 characters']]));
      expect((await post('/api/rules', { title: 'abcdefghijk' })).body).to.deep.equal(validationBody([['title', 'title must be at most 10 characters']]));
      expect((await post('/api/rules', { title: 'regex', code: 'abc-1' })).body).to.deep.equal(
        validationBody([['code', 'code must match the following: "/^[A-Z]{3}-\\d+$/"']]),
      );
    });

    it('refuses strings longer than their varchar(255) column on both databases; text has no such limit', async () => {
      expect((await post('/api/rules', { title: 'long', label: 'x'.repeat(256) })).body).to.deep.equal(validationBody([['label', 'label must be at most 255 characters']]));
      expect((await post('/api/rules', { title: 'long', contact: `${'x'.repeat(250)}@example.org` })).body).to.deep.equal(
        validationBody([['contact', 'contact must be at most 255 characters']]),
      );
      expect((await post('/api/rules', { title: 'edge', label: 'y'.repeat(255) })).status).to.equal(200);
      const text = await post('/api/samples', { aText: 'z'.repeat(100000) });
      expect(text.status).to.equal(200);
      expect(text.body.data.attributes.aText).to.have.length(100000);
    });

    it('json: very wide values round-trip; nesting beyond 1000 levels is a 400 (both were 500s: stack overflows)', async () => {
      const wide = new Array(300000).fill(0);
      const stored = await app.post('/api/samples', { data: { aJson: wide } }, { token });
      expect(stored.status).to.equal(200);
      expect(stored.body.data.attributes.aJson).to.have.length(300000);
      const nest = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
      // MariaDB's json column nests at most 32 levels (MySQL 8's: 100): deeper is its 400, never a 500.
      const ok = await app.request('POST', '/api/samples', { rawBody: `{"data":{"aJson":${nest(dialect === 'mysql' ? 30 : 1000)}}}`, token });
      expect(ok.status).to.equal(200);
      if (dialect === 'mysql') {
        const tooDeep = await app.request('POST', '/api/samples', { rawBody: `{"data":{"aJson":${nest(1000)}}}`, token });
        expect(tooDeep.body).to.deep.equal(validationBody([['aJson', 'aJson is nested more deeply than this database stores JSON']]));
      }
      for (const depth of [1001, 20000]) {
        const deep = await app.request('POST', '/api/samples', { rawBody: `{"data":{"aJson":${nest(depth)}}}`, token });
        expect(deep.body, `depth ${depth}`).to.deep.equal(validationBody([['aJson', 'aJson must not be nested more than 1000 levels deep']]));
      }
    });

    it('enforces min and max on integers and decimals', async () => {
      expect((await post('/api/rules', { title: 'min', score: 0 })).body).to.deep.equal(validationBody([['score', 'score must be greater than or equal to 1']]));
      expect((await post('/api/rules', { title: 'max', score: 6 })).body).to.deep.equal(validationBody([['score', 'score must be less than or equal to 5']]));
      expect((await post('/api/rules', { title: 'ratio', ratio: 2.75 })).body).to.deep.equal(validationBody([['ratio', 'ratio must be less than or equal to 2.5']]));
      expect((await post('/api/rules', { title: 'edges', score: 5, ratio: 0.5 })).status).to.equal(200);
    });

    it('enforces enum membership and email format', async () => {
      expect((await post('/api/rules', { title: 'enum', level: 'medium' })).body).to.deep.equal(
        validationBody([['level', 'level must be one of the following values: low, high']]),
      );
      expect((await post('/api/rules', { title: 'email', contact: 'not-an-email' })).body).to.deep.equal(validationBody([['contact', 'contact must be a valid email']]));
    });

    it('rejects values of the wrong type with Strapi messages', async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ score: 'abc' }, 'score', 'score must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).'],
        [{ score: 2.5 }, 'score', 'score must be an integer'],
        [{ label: 42 }, 'label', 'label must be a `string` type, but the final value was: `42`.'],
        [{ active: 'yes' }, 'active', 'active must be a `boolean` type, but the final value was: `"yes"`.'],
        [{ day: '2023-02-29' }, 'day', 'day must be a valid date (YYYY-MM-DD)'],
        [{ at: '25:00' }, 'at', 'at must be a valid time (HH:mm:ss.SSS)'],
        [{ when: 'yesterday' }, 'when', 'when must be a valid date-time'],
        // Years outside 1..9999 are valid in JavaScript but not in Postgres (was a 500 there).
        [{ day: '0000-01-01' }, 'day', 'day must be a valid date (YYYY-MM-DD)'],
        [{ when: '0000-12-31T23:00:00Z' }, 'when', 'when must be a valid date-time'],
        [{ when: 8640000000000000 }, 'when', 'when must be a valid date-time'],
        [{ when: -62198755200000 }, 'when', 'when must be a valid date-time'],
        [{ big: '99999999999999999999' }, 'big', 'big must be an integer'],
        [{ big: 1.5 }, 'big', 'big must be an integer'],
      ];
      for (const [data, field, message] of cases) {
        const response = await post('/api/rules', { title: 'types', ...data });
        expect(response.status, JSON.stringify(data)).to.equal(400);
        expect(response.body, JSON.stringify(data)).to.deep.equal(validationBody([[field, message]]));
      }
    });

    it('writes nothing when validation fails', async () => {
      const before = await app.app.entityService.count('api::rule.rule');
      await post('/api/rules', { title: 'x' });
      await post('/api/rules', { title: 'fine', score: 99 });
      expect(await app.app.entityService.count('api::rule.rule')).to.equal(before);
    });
  });
});
