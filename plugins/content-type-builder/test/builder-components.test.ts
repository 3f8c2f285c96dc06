/**
 * The builder's component writes in development, against Strapi 4.26.2's recorded steps (recorded/create-quote,
 * recorded/delete-seo): a component created through the route is the file Strapi writes, byte for byte, then a
 * restart; a taken name and invalid bodies get Strapi's answers; deleting a component removes its file (and its
 * emptied category folder) and the attributes that used it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { eachDatabase } from '@tessera/testing';
import { DevelopSession, filesUnder, recorded, recordedJson } from './builder-fixture';

interface Answer { status: number; body: unknown }
interface Answers {
  createQuote: Answer;
  deleteQuote: Answer;
  deleteSeo: Answer;
  componentExists: Answer & { request: unknown };
  componentNotFound: Answer;
  invalidComponent: Array<Answer & { request: unknown }>;
}
const ANSWERS = recordedJson<Answers>('answers.json');
const CREATE_QUOTE = recordedJson<unknown>('create-quote/request.json');
const CREATE_LANDING = recordedJson<unknown>('create-landing/request.json');
const BASE = '/content-type-builder';
const ARTICLE = 'src/api/article/content-types/article/schema.json';

eachDatabase('content-type builder component writes (Strapi 4.26.2)', (dialect) => {
  const session = new DevelopSession(dialect);
  before(() => session.start());
  after(() => session.stop());
  const restart = () => session.restart();

  it("refuses invalid bodies and a taken name with Strapi's answers, writing nothing", async () => {
    for (const invalid of [...ANSWERS.invalidComponent, ANSWERS.componentExists]) {
      const response = await session.app.post(`${BASE}/components`, invalid.request, { token: session.token });
      expect({ status: response.status, body: response.body }, JSON.stringify(invalid.request)).to.deep.equal({ status: invalid.status, body: invalid.body });
    }
    expect(filesUnder(path.join(session.app.dir, 'src/components'))).to.deep.equal(['shared/seo.json']);
    expect(session.restarts).to.deep.equal([]);
  });

  it('creates a component: the file Strapi writes, byte for byte, then a restart; it is listed after it', async () => {
    const created = await session.app.post(`${BASE}/components`, CREATE_QUOTE, { token: session.token });
    expect({ status: created.status, body: created.body }).to.deep.equal(ANSWERS.createQuote);
    expect(fs.readFileSync(path.join(session.app.dir, 'src/components/shared/pull-quote.json'), 'utf8')).to.equal(recorded('create-quote/pull-quote.json'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(session.restarts).to.have.length(1);
    await restart();
    const listed = await session.app.get(`${BASE}/components/shared.pull-quote`, { token: session.token });
    expect(listed.status).to.equal(200);
    expect(listed.body.data.schema).to.include({ displayName: 'Pull Quote', icon: 'quote', collectionName: 'components_shared_pull_quotes' });
  });

  it('creates a type with a new component in the same save (its tmpUID mapped), both files as Strapi writes them', async () => {
    const created = await session.app.post(`${BASE}/content-types`, CREATE_LANDING, { token: session.token });
    expect({ status: created.status, body: created.body }).to.deep.equal({ status: 201, body: { data: { uid: 'api::landing.landing' } } });
    expect(fs.readFileSync(path.join(session.app.dir, 'src/components/blocks/hero.json'), 'utf8')).to.equal(recorded('create-landing/hero.json'));
    expect(fs.readFileSync(path.join(session.app.dir, 'src/api/landing/content-types/landing/schema.json'), 'utf8')).to.equal(recorded('create-landing/landing-schema.json'));
    await restart();
    const rest = await session.app.fullAccessToken();
    const posted = await session.app.post('/api/landings?populate=hero', { data: { title: 'Home', hero: { heading: 'Hello' } } }, { token: rest });
    expect(posted.status).to.equal(200);
    expect(posted.body.data.attributes.hero).to.include({ heading: 'Hello' });
  });

  it('deletes components: the file, the emptied category folder, and the attributes that used it', async () => {
    const missing = await session.app.delete(`${BASE}/components/shared.nope`, { token: session.token });
    expect({ status: missing.status, body: missing.body }).to.deep.equal(ANSWERS.componentNotFound);
    const quote = await session.app.delete(`${BASE}/components/shared.pull-quote`, { token: session.token });
    expect({ status: quote.status, body: quote.body }).to.deep.equal(ANSWERS.deleteQuote);
    await restart();
    const seo = await session.app.delete(`${BASE}/components/shared.seo`, { token: session.token });
    expect({ status: seo.status, body: seo.body }).to.deep.equal(ANSWERS.deleteSeo);
    expect(fs.existsSync(path.join(session.app.dir, 'src/components/shared'))).to.equal(false);
    expect(fs.existsSync(path.join(session.app.dir, 'src/components'))).to.equal(true);
    expect(fs.readFileSync(path.join(session.app.dir, ARTICLE), 'utf8')).to.equal(recorded('delete-seo/article-schema.json'));
    // A dynamic zone keeps its other components.
    const landing = JSON.parse(fs.readFileSync(path.join(session.app.dir, 'src/api/landing/content-types/landing/schema.json'), 'utf8'));
    expect(landing.attributes.sections).to.deep.equal({ type: 'dynamiczone', components: ['blocks.hero'] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(session.restarts).to.have.length(4);
  });
});
