/**
 * The Settings → Internationalization page's routes and the content manager's
 * "fill in from another locale" answer as Strapi 4.26.2 answers them: the
 * recorded exchanges (strapi-4.26.2-admin-locales.json) replayed in order on a
 * fresh database of each kind, then their effects read back through the
 * content API, which keeps using the same locales.
 */
import { expect } from 'chai';
import { eachDatabase } from '@tessera/testing';
import { normalise, send, startMediaApp, type Exchange, type MediaApp } from '../../upload/test/admin-fixture';
import recording from './strapi-4.26.2-admin-locales.json';

eachDatabase('i18n admin routes (Strapi 4.26.2 answers)', (dialect) => {
  let media: MediaApp;
  before(async () => {
    media = await startMediaApp(dialect, recording.admin);
  });
  after(() => media?.app.stop());

  for (const exchange of recording.exchanges as Exchange[]) {
    it(`${exchange.method} ${exchange.path}: ${exchange.title}`, async () => {
      const { status, body } = await send(media, exchange, {});
      // The content-API requests only set the scene (their answers are the content API's suites' concern).
      if (exchange.auth === 'api') expect(status).to.equal(exchange.status);
      else expect([status, normalise(body)]).to.deep.equal([exchange.status, exchange.answer]);
    });
  }

  it('the content API lists the locales the admin made, with the default it chose', async () => {
    const created = await media.app.post('/i18n/locales', { name: 'Español', code: 'es-ES', isDefault: true }, { token: media.token });
    expect(created.status).to.equal(200);
    const listed = await media.app.get('/api/i18n/locales', { token: media.apiToken });
    expect(listed.body.map((locale: { code: string; isDefault: boolean }) => [locale.code, locale.isDefault])).to.deep.equal([
      ['en', false], ['fr', false], ['de', false], ['es', false], ['es-ES', true],
    ]);
    // A localized entry created without a locale now gets the new default.
    const page = await media.app.post('/api/pages', { data: { title: 'Hola', slug: 'hola' } }, { token: media.apiToken });
    expect(page.body.data.attributes.locale).to.equal('es-ES');
    const back = await media.app.put('/i18n/locales/1', { isDefault: true }, { token: media.token });
    expect(back.body.isDefault).to.equal(true);
  });
});
