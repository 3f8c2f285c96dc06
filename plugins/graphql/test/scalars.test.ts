/**
 * Every attribute type through GraphQL and back: a mutation writes each
 * scalar (Long, Time, Date, DateTime, JSON, enums whose values are not
 * GraphQL names), a query reads it and filters on it; bad scalar input is
 * BAD_USER_INPUT before anything runs. Dynamic-zone items are written with
 * `__typename`.
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { gql, gqlData } from './helpers';

const GADGET = {
  kind: 'collectionType',
  collectionName: 'gadgets',
  info: { singularName: 'gadget', pluralName: 'gadgets', displayName: 'Gadget' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string', required: true },
    contact: { type: 'email' },
    notes: { type: 'text' },
    big: { type: 'biginteger' },
    count: { type: 'integer' },
    price: { type: 'decimal' },
    ratio: { type: 'float' },
    active: { type: 'boolean' },
    day: { type: 'date' },
    clock: { type: 'time' },
    moment: { type: 'datetime' },
    stage: { type: 'enumeration', enum: ['in-progress', '2nd try', 'done'] },
    data: { type: 'json' },
    secret: { type: 'string', private: true },
    pin: { type: 'password' },
    parts: { type: 'dynamiczone', components: ['kit.part', 'kit.note'] },
  },
};

const FILES = {
  'src/api/gadget/content-types/gadget/schema.json': GADGET,
  'src/components/kit/part.json': { collectionName: 'components_kit_parts', info: { displayName: 'part' }, attributes: { label: { type: 'string' }, weight: { type: 'float' } } },
  'src/components/kit/note.json': { collectionName: 'components_kit_notes', info: { displayName: 'note' }, attributes: { text: { type: 'text' } } },
  'config/plugins.js': 'module.exports = { graphql: { enabled: true } };',
};

const FIELDS = 'id attributes { name contact notes big count price ratio active day clock moment stage data parts { __typename ... on ComponentKitPart { label weight } ... on ComponentKitNote { text } } }';

eachDatabase('GraphQL scalars and inputs', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startApp({ dialect, files: FILES });
    token = await app.fullAccessToken();
  });
  after(() => app?.stop());

  it('enum values that are not GraphQL names get names; the stored value is kept', async () => {
    const data = await gqlData(app, '{ __type(name: "ENUM_GADGET_STAGE") { enumValues { name } } }', { token });
    expect(data.__type.enumValues.map((value: { name: string }) => value.name)).to.deep.equal(['in_progress', '_2nd_try', 'done']);
    // Private attributes and passwords are written (as over REST) and listed in the input, as in Strapi; never output.
    const fields = await gqlData(app, '{ __type(name: "GadgetInput") { inputFields { name } } }', { token });
    expect(fields.__type.inputFields.map((field: { name: string }) => field.name)).to.include.members(['secret', 'pin']);
    const output = await gqlData(app, '{ __type(name: "Gadget") { fields { name } } }', { token });
    expect(output.__type.fields.map((field: { name: string }) => field.name)).to.not.include.members(['secret']);
    expect(output.__type.fields.map((field: { name: string }) => field.name)).to.not.include.members(['pin']);
  });

  it('a model with big integers, times and a dynamic zone has Long, Time, their filters and Error (pruned where unused)', async () => {
    const data = await gqlData(app, '{ __schema { types { name } } }', { token });
    const names = data.__schema.types.map((type: { name: string }) => type.name);
    expect(names).to.include.members(['Long', 'Time', 'LongFilterInput', 'TimeFilterInput', 'Error', 'JSONFilterInput', 'DateFilterInput']);
    const filters = await gqlData(app, '{ __type(name: "TimeFilterInput") { inputFields { name type { name ofType { name } } } } }', { token });
    expect(filters.__type.inputFields.find((field: { name: string }) => field.name === 'between').type.ofType.name).to.equal('Time');
  });

  it('writes and reads every scalar, a dynamic zone from __typename items, and filters on them', async () => {
    const variables = {
      data: {
        name: 'Widget',
        contact: 'w@example.com',
        notes: 'Long text',
        big: '9007199254740993',
        count: 3,
        price: 12.5,
        ratio: 0.25,
        active: true,
        day: '2024-02-29',
        clock: '13:45:30',
        moment: '2024-03-01T10:00:00.000Z',
        stage: 'in_progress',
        data: { nested: [1, 'two', null] },
        parts: [{ __typename: 'ComponentKitPart', label: 'Bolt', weight: 1.5 }, { __typename: 'ComponentKitNote', text: 'Handle with care' }],
      },
    };
    const created = await gqlData(app, `mutation ($data: GadgetInput!) { createGadget(data: $data) { data { ${FIELDS} } } }`, { variables, token });
    const expected = {
      ...variables.data,
      clock: '13:45:30.000', // times are stored and answered with milliseconds, as over REST
      parts: [{ __typename: 'ComponentKitPart', label: 'Bolt', weight: 1.5 }, { __typename: 'ComponentKitNote', text: 'Handle with care' }],
    };
    expect(created.createGadget.data.attributes).to.deep.equal(expected);
    const rest = await app.get(`/api/gadgets/${created.createGadget.data.id}`, { token });
    expect(rest.body.data.attributes.stage).to.equal('in-progress');
    expect(String(rest.body.data.attributes.big)).to.equal('9007199254740993');

    const literal = await gqlData(
      app,
      'mutation { createGadget(data: { name: "Other", big: 5, stage: _2nd_try, clock: "08:00", day: "2023-01-01", parts: [{ __typename: "ComponentKitNote", text: "Inline" }] }) { data { attributes { big stage clock parts { ... on ComponentKitNote { text } } } } } }',
      { token },
    );
    expect(literal.createGadget.data.attributes).to.deep.equal({ big: 5, stage: '_2nd_try', clock: '08:00:00.000', parts: [{ text: 'Inline' }] });

    const filtered = await gqlData(
      app,
      `{ gadgets(filters: { stage: { eq: "in-progress" }, day: { lt: "2024-03-01" }, moment: { gte: "2024-03-01T00:00:00Z" }, big: { gt: "9007199254740992" }, active: { eq: true }, clock: { notNull: true } }) { data { attributes { name } } } }`,
      { token },
    );
    expect(filtered.gadgets.data).to.deep.equal([{ attributes: { name: 'Widget' } }]);
  });

  it('bad scalar input is BAD_USER_INPUT (400, nothing runs); an unknown dynamic-zone member too', async () => {
    for (const data of [{ name: 'x', day: '2024-13-45' }, { name: 'x', clock: 'noon' }, { name: 'x', big: 1.5 }, { name: 'x', moment: 'yesterday' }, { name: 'x', parts: [{ __typename: 'Nope' }] }]) {
      const response = await gql(app, 'mutation ($data: GadgetInput!) { createGadget(data: $data) { data { id } } }', { variables: { data }, token });
      expect(response.status, JSON.stringify(data)).to.equal(400);
      expect(response.body.errors![0].extensions!.code, JSON.stringify(data)).to.equal('BAD_USER_INPUT');
    }
    const invalid = await gql(app, 'mutation { createGadget(data: { name: "x", contact: "not-an-email" }) { data { id } } }', { token });
    expect(invalid.body.errors![0].extensions!.error!.name).to.equal('ValidationError');
    const total = await gqlData(app, '{ gadgets { meta { pagination { total } } } }', { token });
    expect(total.gadgets.meta.pagination.total).to.equal(2);
  });
});
