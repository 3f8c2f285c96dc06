/**
 * Builder saves that carry other components (`components: [...]`), and a type changed between collection and single
 * type, as Strapi 4.26.2 answers them and writes their files (recorded on the peer under `strapi develop`,
 * 2026-11-30, in recorded/nested-components/ and recorded/kind-change/, each request sent as recorded):
 * - a type's save that edits an existing component it uses (`uid`), as the panel sends it when both were changed;
 * - a component's save with a new component inside it (`tmpUID`), and a new component made with a new one and an
 *   edit of another;
 * - nested bodies refused in Strapi's validation envelope, their paths starting at the item;
 * - a collection type with two entries refused as a single type, accepted with one (the entry then read as the
 *   single type), and a single type made a collection type.
 * After each write the app restarts on the files, and the content API reads or writes through the change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { eachDatabase } from '@tessera/testing';
import { DevelopSession, filesUnder, recorded, recordedJson } from './builder-fixture';

const BASE = '/content-type-builder';
const CATEGORY = 'src/api/category/content-types/category/schema.json';
const NOTE_API = 'src/api/note';

interface Recorded {
  status: number;
  body: unknown;
}

eachDatabase('content-type builder: nested components and kind changes', (dialect) => {
  const session = new DevelopSession(dialect);
  before(() => session.start());
  after(() => session.stop());
  const file = (relative: string) => fs.readFileSync(path.join(session.app.dir, relative), 'utf8');
  /** Sends a recorded request and expects the recorded answer. */
  const replay = async (name: string, method: 'put' | 'post', url: string) => {
    const request = recordedJson<unknown>(`${name}.request.json`);
    const response = method === 'put' ? await session.app.put(url, request, { token: session.token }) : await session.app.post(url, request, { token: session.token });
    expect({ status: response.status, body: response.body }).to.deep.equal(recordedJson<Recorded>(`${name}.answer.json`));
  };

  it("refuses nested components without exactly one of uid and tmpUID, an unknown uid, and a bad nested body, as Strapi does; nothing is written", async () => {
    const before = { category: file(CATEGORY), components: filesUnder(path.join(session.app.dir, 'src/components')) };
    await replay('nested-components/neither-uid', 'put', `${BASE}/content-types/api::category.category`);
    await replay('nested-components/both-uids', 'put', `${BASE}/content-types/api::category.category`);
    await replay('nested-components/unknown-uid', 'put', `${BASE}/content-types/api::category.category`);
    await replay('nested-components/bad-nested-name', 'put', `${BASE}/components/shared.seo`);
    expect({ category: file(CATEGORY), components: filesUnder(path.join(session.app.dir, 'src/components')) }).to.deep.equal(before);
    expect(session.restarts).to.deep.equal([]);
  });

  it("a type's save edits an existing component it uses: both files as Strapi writes them; the content API writes the new field", async () => {
    await replay('nested-components/type-edits-seo', 'put', `${BASE}/content-types/api::category.category`);
    expect(file(CATEGORY)).to.equal(recorded('nested-components/type-edits-seo.category.json'));
    expect(file('src/components/shared/seo.json')).to.equal(recorded('nested-components/type-edits-seo.seo.json'));
    await session.restart();
    const rest = await session.app.fullAccessToken();
    const created = await session.app.post('/api/categories?populate=seo', { data: { name: 'Searchable', seo: { metaTitle: 'T', canonical: 'https://example.com/c' } } }, { token: rest });
    expect([created.status, created.body.data?.attributes.seo?.canonical]).to.deep.equal([200, 'https://example.com/c']);
  });

  it("a component's save brings a new component, and a new component brings another and edits a third", async () => {
    await replay('nested-components/seo-nests-cta', 'put', `${BASE}/components/shared.seo`);
    expect(file('src/components/shared/seo.json')).to.equal(recorded('nested-components/seo-nests-cta.seo.json'));
    expect(file('src/components/blocks/cta.json')).to.equal(recorded('nested-components/seo-nests-cta.cta.json'));
    await session.restart();
    await replay('nested-components/hero-nests-button', 'post', `${BASE}/components`);
    for (const name of ['hero', 'button', 'cta']) expect(file(`src/components/blocks/${name}.json`), name).to.equal(recorded(`nested-components/hero-nests-button.${name}.json`));
    await session.restart();
    const hero = await session.app.get(`${BASE}/components/blocks.hero`, { token: session.token });
    expect(hero.status).to.equal(200);
    expect(Object.keys(hero.body.data.schema.attributes)).to.deep.equal(['heading', 'buttons', 'cta']);
    const rest = await session.app.fullAccessToken();
    const created = await session.app.post('/api/categories?populate[seo][populate]=ctas', { data: { name: 'With calls', seo: { metaTitle: 'T', ctas: [{ label: 'Go', url: '/go' }] } } }, { token: rest });
    expect([created.status, created.body.data?.attributes.seo?.ctas?.map((cta: { label: string }) => cta.label)]).to.deep.equal([200, ['Go']]);
  });

  it('a collection type with two entries is refused as a single type; with one it becomes one, its API files kept, its entry read as the single type', async () => {
    const apiFiles = () => Object.fromEntries(filesUnder(path.join(session.app.dir, NOTE_API)).map((name) => [name, file(path.join(NOTE_API, name))]));
    const manager = '/content-manager/collection-types/api::note.note';
    const first = await session.app.post(manager, { title: 'one' }, { token: session.token });
    const second = await session.app.post(manager, { title: 'two' }, { token: session.token });
    expect([first.status, second.status]).to.deep.equal([200, 200]);
    const before = apiFiles();
    await replay('kind-change/note-to-single-two-entries', 'put', `${BASE}/content-types/api::note.note`);
    expect(apiFiles()).to.deep.equal(before);
    expect((await session.app.delete(`${manager}/${second.body.id}`, { token: session.token })).status).to.equal(200);
    await replay('kind-change/note-to-single', 'put', `${BASE}/content-types/api::note.note`);
    expect(file(path.join(NOTE_API, 'content-types/note/schema.json'))).to.equal(recorded('kind-change/note-to-single.schema.json'));
    // Strapi deletes the type's router, controller and service and generates them again; Tessera keeps them.
    const { 'content-types/note/schema.json': _schema, ...code } = apiFiles();
    const { 'content-types/note/schema.json': _before, ...codeBefore } = before;
    expect(code).to.deep.equal(codeBefore);
    await session.restart();
    const single = await session.app.get('/content-manager/single-types/api::note.note', { token: session.token });
    expect([single.status, single.body.title]).to.deep.equal([200, 'one']);
    const rest = await session.app.fullAccessToken();
    const read = await session.app.get('/api/note', { token: rest });
    expect([read.status, read.body.data?.attributes.title]).to.deep.equal([200, 'one']);
  });

  it('a single type becomes a collection type: its schema as Strapi writes it, then listed by the content API', async () => {
    await replay('kind-change/homepage-to-collection', 'put', `${BASE}/content-types/api::homepage.homepage`);
    expect(file('src/api/homepage/content-types/homepage/schema.json')).to.equal(recorded('kind-change/homepage-to-collection.schema.json'));
    await session.restart();
    const rest = await session.app.fullAccessToken();
    const created = await session.app.post('/api/homepages', { data: { title: 'Second home' } }, { token: rest });
    expect(created.status).to.equal(200);
    const listed = await session.app.get('/api/homepages', { token: rest });
    expect(listed.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.include('Second home');
  });
});
