/**
 * Write rules a plugin declares (`app.writeRules`): the entity service runs
 * them for content-API and server-code writes of the types they apply to,
 * inside the write's transaction — their data is what gets validated and
 * written, what they write through the query engine does not run them
 * again, and a rule that throws leaves nothing written.
 */
import { expect } from 'chai';
import { ApplicationError, type Plugin, type WriteRule } from '@tessera/core';
import restPlugin from '@tessera/plugin-rest';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const NOTE = 'api::note.note';
/** A collection type without draft & publish, in `src/api/<name>`. */
const collection = (name: string, attributes: object) => ({
  [`src/api/${name}/content-types/${name}/schema.json`]: {
    kind: 'collectionType',
    collectionName: `${name}s`,
    info: { singularName: name, pluralName: `${name}s`, displayName: name },
    options: { draftAndPublish: false },
    attributes,
  },
});
const FILES = {
  ...collection('note', { title: { type: 'string', required: true }, copies: { type: 'integer' } }),
  ...collection('tag', { title: { type: 'string' } }),
};

eachDatabase('write rules', (dialect) => {
  let app: TestApp;
  let token: string;
  const calls: string[] = [];
  /** Titles are upper-cased; each update counts the notes written so far into every note (through the query engine). */
  const rule: WriteRule = {
    appliesTo: (uid) => uid === NOTE,
    prepareCreate: (uid, data) => {
      calls.push(`prepareCreate ${uid}`);
      return { ...data, title: typeof data.title === 'string' ? data.title.toUpperCase() : data.title };
    },
    async afterCreate(uid, id, data) {
      calls.push(`afterCreate ${id} ${String(data.title)}`);
    },
    prepareUpdate(_uid, id, data) {
      calls.push(`prepareUpdate ${id}`);
      if (data.title === 'refused') throw new ApplicationError('refused by the rule');
      return data;
    },
    async afterUpdate(uid, id, data) {
      calls.push(`afterUpdate ${id}`);
      if (data.title === 'undo') throw new ApplicationError('undone by the rule');
      const count = await app.app.db.query(uid).count();
      await app.app.db.query(uid).updateMany({ where: {}, data: { copies: count } });
    },
  };
  const plugin: Plugin = { name: 'rules', register: ({ app: kernel }) => kernel.writeRules.add('rules', rule) };

  before(async () => {
    app = await startApp({ dialect, files: FILES, plugins: [restPlugin, plugin] });
    token = await app.fullAccessToken();
  });
  beforeEach(() => {
    calls.length = 0;
  });
  after(() => app?.stop());

  it('a REST create is prepared by the rule, validated, written, then told', async () => {
    const created = await app.post('/api/notes', { data: { title: 'first' } }, { token });
    expect(created.status, created.text).to.equal(200);
    expect(created.body.data.attributes.title).to.equal('FIRST');
    expect(calls).to.deep.equal(['prepareCreate api::note.note', `afterCreate ${created.body.data.id} FIRST`]);
    const invalid = await app.post('/api/notes', { data: { title: 12 } }, { token });
    expect(invalid.status).to.equal(400);
  });

  it('server-code updates run the rule; what the rule writes through the query engine runs it not again', async () => {
    const second = await app.app.entityService.create(NOTE, { data: { title: 'second' } });
    calls.length = 0;
    const updated = await app.app.entityService.update(NOTE, second.id, { data: { title: 'second again' } });
    expect(updated.title).to.equal('second again');
    expect(calls).to.deep.equal([`prepareUpdate ${second.id}`, `afterUpdate ${second.id}`]);
    const notes = await app.app.db.query(NOTE).findMany({ select: ['copies'] });
    expect(notes.map((note) => note.copies)).to.deep.equal([2, 2]);
  });

  it('a rule that throws, before or after the write, leaves nothing written', async () => {
    const [first] = await app.app.db.query(NOTE).findMany({ where: { title: 'FIRST' }, select: ['id'] });
    const refused = await app.put(`/api/notes/${first.id}`, { data: { title: 'refused' } }, { token });
    expect(refused.body.error).to.deep.include({ status: 400, message: 'refused by the rule' });
    const undone = await app.put(`/api/notes/${first.id}`, { data: { title: 'undo' } }, { token });
    expect(undone.body.error).to.deep.include({ status: 400, message: 'undone by the rule' });
    expect((await app.get(`/api/notes/${first.id}`, { token })).body.data.attributes.title).to.equal('FIRST');
  });

  it('types the rule does not apply to are left alone', async () => {
    const tag = await app.post('/api/tags', { data: { title: 'lower' } }, { token });
    expect(tag.body.data.attributes.title).to.equal('lower');
    expect(calls).to.deep.equal([]);
  });
});
