/**
 * "Fill in from another locale" (`POST /i18n/content-manager/actions/get-non-localized-fields`)
 * on a type whose shared field is a component holding media and a nested
 * component: the whole shared value comes back, components without their row
 * ids, media as stored, with the entry's localizations — and only the fields
 * the admin's read/create permissions allow in the target locale (Strapi's
 * rule), so a role without that locale, or without the field, gets nothing.
 */
import { expect } from 'chai';
import bcrypt from 'bcryptjs';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { FILE_UID } from '@tessera/database';
import { PERMISSION_UID, ROLE_UID, USER_UID } from '@tessera/plugin-admin';

const FILES = {
  'package.json': { name: 'fill-test-app', version: '0.1.0', dependencies: { '@strapi/admin': '4.26.2', '@strapi/strapi': '4.26.2', '@strapi/plugin-i18n': '4.26.2' } },
  'src/api/guide/content-types/guide/schema.json': {
    kind: 'collectionType',
    collectionName: 'guides',
    info: { singularName: 'guide', pluralName: 'guides', displayName: 'Guide' },
    options: { draftAndPublish: false },
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
      hero: { type: 'component', component: 'blocks.hero', pluginOptions: { i18n: { localized: false } } },
    },
  },
  'src/components/blocks/hero.json': {
    collectionName: 'components_blocks_heroes',
    info: { displayName: 'Hero' },
    attributes: { caption: { type: 'string' }, picture: { type: 'media', multiple: false }, cta: { type: 'component', component: 'blocks.cta' } },
  },
  'src/components/blocks/cta.json': { collectionName: 'components_blocks_ctas', info: { displayName: 'Cta' }, attributes: { label: { type: 'string' } } },
  'src/index.js': `module.exports = { async bootstrap({ strapi }) { const l = strapi.plugin('i18n').service('locales'); if (!(await l.findByCode('fr'))) await l.create({ code: 'fr', name: 'French (fr)' }); } };`,
};
const PASSWORD = 'Secret123';
const READ = 'plugin::content-manager.explorer.read';
const GUIDE = 'api::guide.guide';

eachDatabase('i18n get-non-localized-fields: nested shared values, locale permissions', (dialect) => {
  let app: TestApp;
  let superToken: string;
  let guideId: number;
  let fileId: number;
  before(async () => {
    app = await startApp({ dialect, files: FILES, config: { admin: { auth: { secret: 'fill-secret' } } } });
    superToken = (await app.post('/admin/register-admin', { email: 'super@example.com', firstname: 'Su', password: PASSWORD })).body.data.token;
    fileId = (await app.app.db.query(FILE_UID).create({ data: { name: 'p.png', hash: 'p_abc', ext: '.png', mime: 'image/png', size: 1, url: '/uploads/p_abc.png', provider: 'local', folderPath: '/' } })).id;
    const created = await app.app.entityService.create(GUIDE, { data: { title: 'Start', locale: 'en', hero: { caption: 'Welcome', picture: fileId, cta: { label: 'Go' } } } });
    guideId = created.id;
  });
  after(() => app?.stop());

  const ask = (token: string, locale: string) =>
    app.post('/i18n/content-manager/actions/get-non-localized-fields', { model: GUIDE, id: guideId, locale }, { token });

  it('answers the shared component whole (media, nested component), without component ids', async () => {
    const response = await ask(superToken, 'fr');
    expect(response.status).to.equal(200);
    const { hero } = response.body.nonLocalizedFields;
    expect(Object.keys(response.body.nonLocalizedFields)).to.deep.equal(['hero']);
    expect({ caption: hero.caption, cta: hero.cta, picture: { id: hero.picture.id, name: hero.picture.name }, id: hero.id }).to.deep.equal({
      caption: 'Welcome',
      cta: { label: 'Go' },
      picture: { id: fileId, name: 'p.png' },
      id: undefined,
    });
    expect(response.body.localizations).to.deep.equal([{ id: guideId, locale: 'en' }]);
  });

  it("gives a role only the fields its permissions allow in the target locale (Strapi's rule)", async () => {
    const db = app.app.db;
    const role = (await db.query(ROLE_UID).create({ data: { name: 'Translator', code: 'translator', description: '' } })).id;
    await db.query(PERMISSION_UID).create({ data: { action: READ, actionParameters: {}, subject: GUIDE, properties: { fields: ['title', 'hero.caption'], locales: ['fr'] }, conditions: [], role } });
    await db.query(USER_UID).create({ data: { email: 'tr@example.com', firstname: 'Tr', password: await bcrypt.hash(PASSWORD, 10), isActive: true, blocked: false, roles: [role] } });
    const token = (await app.post('/admin/login', { email: 'tr@example.com', password: PASSWORD })).body.data.token;
    const inFrench = await ask(token, 'fr');
    expect([inFrench.status, Object.keys(inFrench.body.nonLocalizedFields)]).to.deep.equal([200, ['hero']]);
    const inGerman = await ask(token, 'en');
    expect([inGerman.status, inGerman.body.nonLocalizedFields]).to.deep.equal([200, {}]);
  });
});
