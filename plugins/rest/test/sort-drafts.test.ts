import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

/**
 * Sorting through a relation under `live` sees only published targets, as
 * filters and populate do: an entry whose related entry is a draft sorts as
 * one without it (NULLs first ascending), so a hidden draft's values cannot
 * be probed through the order of a list (issue 23, finding 5). Under
 * `preview` drafts are seen, and sorts through to-many relations or
 * components stay refused.
 */
const FILES = {
  'src/api/node/content-types/node/schema.json': {
    kind: 'collectionType',
    collectionName: 'nodes',
    info: { singularName: 'node', pluralName: 'nodes', displayName: 'Node' },
    options: { draftAndPublish: true },
    attributes: {
      title: { type: 'string' },
      parent: { type: 'relation', relation: 'manyToOne', target: 'api::node.node', inversedBy: 'children' },
      children: { type: 'relation', relation: 'oneToMany', target: 'api::node.node', mappedBy: 'parent' },
      owner: { type: 'relation', relation: 'manyToOne', target: 'api::person.person' },
      info: { type: 'component', repeatable: false, component: 'shared.info' },
    },
  },
  'src/api/person/content-types/person/schema.json': {
    kind: 'collectionType',
    collectionName: 'people',
    info: { singularName: 'person', pluralName: 'people', displayName: 'Person' },
    options: { draftAndPublish: true },
    attributes: { name: { type: 'string' } },
  },
  'src/components/shared/info.json': { collectionName: 'components_shared_infos', info: { displayName: 'Info' }, attributes: { label: { type: 'string' } } },
  'config/permissions.ts': `export default { public: ['api::node.node.find', 'api::node.node.findOne', 'api::person.person.find'] };\n`,
};

const PUBLISHED = '2024-01-01T00:00:00.000Z';

eachDatabase('sorting through a relation hides drafts under live', (dialect) => {
  let app: TestApp;
  let token: string;
  const id: Record<string, number> = {};

  before(async () => {
    app = await startApp({ dialect, files: FILES });
    token = await app.fullAccessToken();
    const create = async (type: string, name: string, data: Record<string, unknown>) => {
      const response = await app.post(`/api/${type}`, { data }, { token });
      expect(response.status, response.text).to.equal(200);
      id[name] = response.body.data.id;
    };
    await create('people', 'zz', { name: 'Zz (draft)', publishedAt: null });
    await create('people', 'bob', { name: 'Bob', publishedAt: PUBLISHED });
    await create('nodes', 'alpha', { title: 'Alpha', owner: id.zz, publishedAt: PUBLISHED });
    await create('nodes', 'beta', { title: 'Beta', owner: id.bob, publishedAt: PUBLISHED });
    await create('nodes', 'zeta', { title: 'Zeta (draft)', publishedAt: null });
    await create('nodes', 'c1', { title: 'c1', parent: id.zeta, publishedAt: PUBLISHED });
    await create('nodes', 'c2', { title: 'c2', parent: id.beta, owner: id.bob, publishedAt: PUBLISHED });
    await create('nodes', 'c3', { title: 'c3', parent: id.alpha, owner: id.zz, publishedAt: PUBLISHED });
    await create('nodes', 'c4', { title: 'c4', parent: id.alpha, owner: id.bob, publishedAt: PUBLISHED });
  });
  after(() => app?.stop());

  const titles = (body: { data: Array<{ attributes: { title: string } }> }) => body.data.map((entry) => entry.attributes.title);

  it('orders by a draft parent as by no parent, and shows no parent', async () => {
    const asc = await app.get('/api/nodes?filters[title][$in][0]=c1&filters[title][$in][1]=c2&sort=parent.title:asc&populate[parent][fields][0]=title');
    expect(asc.status, asc.text).to.equal(200);
    // c1's parent is the draft "Zeta (draft)": under live it has none, and no parent sorts first ascending.
    expect(titles(asc.body)).to.deep.equal(['c1', 'c2']);
    expect(asc.body.data[0].attributes.parent).to.deep.equal({ data: null });
    const desc = await app.get('/api/nodes?filters[title][$in][0]=c1&filters[title][$in][1]=c2&sort=parent.title:desc');
    expect(titles(desc.body)).to.deep.equal(['c2', 'c1']);
  });

  it('hides a draft at any hop of the path', async () => {
    // c3 → Alpha (published) → owner Zz (draft): no owner under live. c2 → Beta → Bob.
    const response = await app.get('/api/nodes?filters[title][$in][0]=c2&filters[title][$in][1]=c3&sort=parent.owner.name:asc');
    expect(titles(response.body)).to.deep.equal(['c3', 'c2']);
    const desc = await app.get('/api/nodes?filters[title][$in][0]=c2&filters[title][$in][1]=c3&sort=parent.owner.name:desc');
    expect(titles(desc.body)).to.deep.equal(['c2', 'c3']);
  });

  it('hides drafts in a populated relation sorted through a relation', async () => {
    const response = await app.get(`/api/nodes/${id.alpha}?populate[children][sort][0]=owner.name:desc&populate[children][fields][0]=title`);
    expect(response.status, response.text).to.equal(200);
    // c4's owner Bob is published; c3's owner is a draft, so c3 sorts as having none (last descending).
    expect(titles(response.body.data.attributes.children)).to.deep.equal(['c4', 'c3']);
    const asc = await app.get(`/api/nodes/${id.alpha}?populate[children][sort][0]=owner.name:asc&populate[children][fields][0]=title`);
    expect(titles(asc.body.data.attributes.children)).to.deep.equal(['c3', 'c4']);
  });

  it('orders by the draft under preview, for a caller allowed to preview', async () => {
    const response = await app.get('/api/nodes?filters[title][$in][0]=c1&filters[title][$in][1]=c2&sort=parent.title:asc&publicationState=preview', { token });
    expect(titles(response.body)).to.deep.equal(['c2', 'c1']);
    const twoHops = await app.get('/api/nodes?filters[title][$in][0]=c2&filters[title][$in][1]=c3&sort=parent.owner.name:asc&publicationState=preview', { token });
    expect(titles(twoHops.body)).to.deep.equal(['c2', 'c3']);
  });

  it('still refuses sorting through a to-many relation or a component', async () => {
    const toMany = await app.get('/api/nodes?sort=children.title:asc');
    expect(toMany.status).to.equal(400);
    expect(toMany.body.error.message).to.equal('Invalid parameter children: cannot sort through a to-many relation');
    const component = await app.get('/api/nodes?sort=info.label:asc');
    expect(component.status).to.equal(400);
    expect(component.body.error.message).to.equal('Invalid parameter info');
  });
});
