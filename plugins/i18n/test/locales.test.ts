/**
 * Locales: the default one a fresh database gets, the `locales` service with
 * Strapi v4's method names (run from a Strapi-style bootstrap), the ISO check,
 * and `GET /api/i18n/locales` as Strapi answers it (a bare array, sample 100).
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import type { LocalesService } from '../src';
import { startI18nApp } from './fixture';

const ISO_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

eachDatabase('i18n locales', (dialect) => {
  let app: TestApp;
  let token: string;
  const locales = () => app.app.plugin('i18n')!.service('locales');
  before(async () => {
    ({ app, token } = await startI18nApp(dialect));
  });
  after(() => app?.stop());

  it('GET /api/i18n/locales lists them as a bare array, en the default (sample 100)', async () => {
    const response = await app.get('/api/i18n/locales', { token });
    expect(response.status).to.equal(200);
    expect(response.body.map((locale: Record<string, unknown>) => Object.keys(locale))).to.deep.equal([
      ['id', 'name', 'code', 'createdAt', 'updatedAt', 'isDefault'],
      ['id', 'name', 'code', 'createdAt', 'updatedAt', 'isDefault'],
      ['id', 'name', 'code', 'createdAt', 'updatedAt', 'isDefault'],
    ]);
    expect(response.body.map(({ id, name, code, isDefault }: Record<string, unknown>) => ({ id, name, code, isDefault }))).to.deep.equal([
      { id: 1, name: 'English (en)', code: 'en', isDefault: true },
      { id: 2, name: 'French (fr)', code: 'fr', isDefault: false },
      { id: 3, name: 'German (de)', code: 'de', isDefault: false },
    ]);
    expect(response.body[0].createdAt).to.match(ISO_TIMESTAMP);
  });

  it('the route needs its permission: anonymous callers get 403', async () => {
    const response = await app.get('/api/i18n/locales');
    expect(response.status).to.equal(403);
  });

  it('the service finds by id and code, and counts', async () => {
    expect(await locales().findByCode('fr')).to.include({ id: 2, code: 'fr', name: 'French (fr)' });
    expect(await locales().findById(3)).to.include({ code: 'de' });
    expect(await locales().findByCode('it')).to.equal(null);
    expect(await locales().count()).to.equal(3);
    expect(locales().getDefaultLocale()).to.equal('en');
  });

  it('create checks the code against the ISO list and names it from there; a used code is refused', async () => {
    const created = await locales().create({ code: 'fr-CA' });
    expect(created).to.include({ code: 'fr-CA', name: 'French (Canada) (fr-CA)' });
    expect((await locales().create({ code: 'zh-Hans', name: 'Chinese' })).name).to.equal('Chinese');
    let error: any;
    try {
      await locales().create({ code: 'xx' });
    } catch (caught) {
      error = caught;
    }
    expect(error?.name).to.equal('ValidationError');
    error = undefined;
    try {
      await locales().create({ code: 'fr' });
    } catch (caught) {
      error = caught;
    }
    expect(error?.message).to.equal('This locale already exists');
    expect(await locales().count()).to.equal(5);
  });

  it('update renames; the default moves with setDefaultLocale (stored where Strapi stores it); delete removes', async () => {
    const canadian = (await locales().findByCode('fr-CA'))!;
    expect(await locales().update({ id: canadian.id }, { name: 'Québécois' })).to.include({ name: 'Québécois', code: 'fr-CA' });
    await locales().setDefaultLocale({ code: 'fr' });
    expect(locales().getDefaultLocale()).to.equal('fr');
    const stored = await app.app.db.sql.first(app.app.db.sql.knex.from('strapi_core_store_settings').select('value', 'type').where('key', 'plugin_i18n_default_locale'));
    expect(stored).to.deep.equal({ value: '"fr"', type: 'string' });
    const listed = await app.get('/api/i18n/locales', { token });
    expect(listed.body.filter((locale: { isDefault: boolean }) => locale.isDefault).map((locale: { code: string }) => locale.code)).to.deep.equal(['fr']);
    let error: any;
    try {
      await locales().delete({ id: 2 });
    } catch (caught) {
      error = caught;
    }
    expect(error?.message).to.equal('Cannot delete the default locale');
    await locales().setDefaultLocale({ code: 'en' });
    expect(await locales().delete({ id: canadian.id })).to.include({ code: 'fr-CA', isDefault: false });
    expect(await locales().findByCode('fr-CA')).to.equal(null);
  });

  it('the ISO list is reachable through the iso-locales service', () => {
    const iso = app.app.plugin('i18n')!.service('iso-locales');
    const codes = iso.getIsoLocales().map((locale) => locale.code);
    expect(codes).to.include.members(['en', 'fr', 'fr-CA', 'de', 'zh-Hans', 'zh-Hant', 'pt-BR', 'fil', 'haw', 'ast', 'ckb', 'ar-001', 'es-419']);
    expect(codes).not.to.include('xx');
  });

});
