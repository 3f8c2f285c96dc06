/**
 * The deliberate difference from Strapi 4.26.2, shown against its recorded
 * answers (strapi-create-with-localizations.json, recorded on the peer in
 * shared/strapi4-peer): a REST create that names `localizations` links
 * those entries there — one way, or both ways with their shared field
 * overwritten when the request populates `localizations` — so a `create`
 * permission rewrites drafts and regroups other entries. Tessera replays the
 * same requests: the same setup gives the same groups, each create answers
 * 200 as Strapi's did, and it leaves every other entry as it was.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { startI18nApp } from './fixture';

interface Group {
  slug: string;
  locale: string;
  order: number | null;
  localizations: string[];
}

interface Request {
  method: string;
  path: string;
  body: unknown;
}

const RECORDING: {
  groupsQuery: string;
  setup: Request[];
  groupsBefore: Group[];
  attacks: Array<{ request: Request; status: number; groupsAfter: Group[] }>;
} = JSON.parse(fs.readFileSync(path.join(__dirname, 'strapi-create-with-localizations.json'), 'utf8'));

eachDatabase('i18n: creates naming localizations, against Strapi 4.26.2', (dialect) => {
  let app: TestApp;
  let token: string;
  const send = (request: Request) => app.request(request.method, request.path, { token, body: request.body });
  const groups = async (): Promise<Group[]> => {
    const response = await app.get(RECORDING.groupsQuery, { token });
    return response.body.data.map((entry: any) => ({
      slug: entry.attributes.slug,
      locale: entry.attributes.locale,
      order: entry.attributes.order,
      localizations: entry.attributes.localizations.data.map((other: any) => other.attributes.slug),
    }));
  };

  before(async () => {
    ({ app, token } = await startI18nApp(dialect));
    for (const request of RECORDING.setup) {
      const response = await send(request);
      expect(response.status, response.text).to.equal(200);
    }
  });
  after(() => app?.stop());

  it('the same setup makes the same groups as Strapi', async () => {
    expect(await groups()).to.deep.equal(RECORDING.groupsBefore);
  });

  it('each create answers as Strapi did, but only adds its own entry, unlinked', async () => {
    let expected = RECORDING.groupsBefore;
    for (const { request, status, groupsAfter } of RECORDING.attacks) {
      const data = (request.body as { data: Record<string, unknown> }).data;
      const own: Group = { slug: data.slug as string, locale: data.locale as string, order: data.order as number, localizations: [] };
      // In Strapi the create reached past its own entry: it linked it, and perhaps changed the entries it named.
      expect(groupsAfter.find((group) => group.slug === own.slug)!.localizations).not.to.deep.equal([]);
      const response = await send(request);
      expect(response.status, response.text).to.equal(status);
      expected = [...expected, own];
      expect(await groups()).to.deep.equal(expected);
    }
    // What Strapi changed on entries that existed before: the draft's and the French entry's shared field and links.
    const last = RECORDING.attacks[RECORDING.attacks.length - 1].groupsAfter;
    const changed = RECORDING.groupsBefore.filter((group) => JSON.stringify(last.find((other) => other.slug === group.slug)) !== JSON.stringify(group));
    expect(changed.map((group) => group.slug)).to.deep.equal(['accueil', 'draft']);
  });
});
