/**
 * `POST /admin/project-settings` (Settings → Overview's logos) as Strapi 4.26.2 answers it, recorded on the peer
 * (2026-11-30): a logo stored through the upload plugin's provider with no media-library row, its description in the
 * core store and in `/admin/init`, the refusals (size, type, unknown keys), a text value resetting a logo and
 * removing its bytes; a JSON body (a 500 on Strapi) changes what it names and nothing else.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { ADMIN_APP_FILES } from './fixture';

const ADMIN = { email: 'logos@example.com', password: 'Logos1234', firstname: 'Lo', lastname: 'Gos' };
const HASH = /^logo_[0-9a-f]{10}$/;

interface Logo {
  name: string;
  url: string;
  width: number;
  height: number;
  ext: string;
  size: number;
}
/** The route's answer: the settings, or the error envelope. */
interface Answer {
  menuLogo: Logo | Record<string, never> | null;
  authLogo: Logo | Record<string, never> | null;
  error: { status: number; name: string; message: string; details: unknown };
}

async function image(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#f00' } }).png().toBuffer();
}

eachDatabase('admin: Settings → Overview logos (POST /admin/project-settings)', (dialect) => {
  let app: TestApp;
  let jwt: string;
  const send = async (parts: Record<string, Buffer | string>, type = 'image/png') => {
    const form = new FormData();
    for (const [name, value] of Object.entries(parts)) {
      if (typeof value === 'string') form.append(name, value);
      else form.append(name, new Blob([value], { type }), 'logo.png');
    }
    const response = await fetch(`${app.url}/admin/project-settings`, { method: 'POST', body: form, headers: { authorization: `Bearer ${jwt}` } });
    return { status: response.status, body: (await response.json()) as Answer };
  };
  const uploads = () => fs.readdirSync(path.join(app.dir, 'public', 'uploads')).sort();
  const stored = async () => (await app.app.store({ type: 'core', name: 'admin' }).get({ key: 'project-settings' })) as Record<string, Record<string, unknown> | null>;

  before(async () => {
    app = await startApp({ dialect, files: { ...ADMIN_APP_FILES, 'package.json': { name: 'logos-app', version: '0.1.0', dependencies: { '@strapi/admin': '4.26.2', '@strapi/strapi': '4.26.2' } } } });
    jwt = (await app.post('/admin/register-admin', ADMIN)).body.data.token;
  });
  after(() => app?.stop());

  it('stores a menu logo through the provider, described in the store and answered as Strapi does', async () => {
    const saved = await send({ menuLogo: await image(100, 50) });
    expect(saved.status).to.equal(200);
    const menuLogo = saved.body.menuLogo as Logo;
    const { url } = menuLogo;
    expect(saved.body).to.deep.equal({ menuLogo: { name: 'logo.png', url, width: 100, height: 50, ext: '.png', size: menuLogo.size }, authLogo: {} });
    expect(url).to.match(/^\/uploads\/logo_[0-9a-f]{10}\.png$/);
    expect((await stored()).menuLogo).to.include({ provider: 'local' }).and.have.property('hash').that.matches(HASH);
    expect(uploads()).to.deep.equal([url.slice('/uploads/'.length)]);
    expect((await app.get('/admin/project-settings', { token: jwt })).body).to.deep.equal(saved.body);
    // As on Strapi, the logo kept as {} has no url, so init leaves its key out.
    expect((await app.get('/admin/init')).body.data).to.deep.equal({ uuid: false, hasAdmin: true, menuLogo: url });
    expect(await app.app.db.query('plugin::upload.file').count({})).to.equal(0);
    expect((await app.get(url)).status).to.equal(200);
  });

  it("refuses what Strapi refuses, with Strapi's messages, and changes nothing", async () => {
    const before = await stored();
    const wide = await send({ authLogo: await image(800, 50) });
    expect(wide.body.error).to.deep.equal({ status: 400, name: 'ValidationError', message: 'authLogo.width must be less than or equal to 750', details: { errors: [{ path: ['authLogo', 'width'], message: 'authLogo.width must be less than or equal to 750', name: 'ValidationError' }] } });
    const text = await send({ authLogo: Buffer.from('hello') }, 'image/png');
    expect(text.body.error.message).to.equal('authLogo.type must be one of the following values: image/jpeg, image/png, image/svg+xml');
    const unknown = await send({ other: '1' });
    expect(unknown.body.error).to.deep.equal({ status: 400, name: 'ValidationError', message: 'this field has unspecified keys: other', details: { errors: [{ path: [], message: 'this field has unspecified keys: other', name: 'ValidationError' }] } });
    expect(await stored()).to.deep.equal(before);
    expect(uploads()).to.have.length(1);
  });

  it('a new auth logo keeps the menu logo; a text value resets the menu logo and removes its bytes', async () => {
    const menu = (await stored()).menuLogo!;
    const both = await send({ authLogo: await image(60, 60) });
    expect([(both.body.menuLogo as Logo).url, (both.body.authLogo as Logo).width]).to.deep.equal([menu.url, 60]);
    const reset = await send({ menuLogo: '' });
    expect(reset.body.menuLogo).to.equal(null);
    expect(reset.body.authLogo).to.deep.equal(both.body.authLogo);
    expect(uploads()).to.deep.equal([(both.body.authLogo as Logo).url.slice('/uploads/'.length)]);
  });

  it('answers a JSON body (a 500 on Strapi) by resetting what it names', async () => {
    const reset = await app.post('/admin/project-settings', { authLogo: 'x' }, { token: jwt });
    expect([reset.status, reset.body]).to.deep.equal([200, { menuLogo: null, authLogo: null }]);
    expect(uploads()).to.deep.equal([]);
  });

  it('needs admin::project-settings.update: no session is a 401', async () => {
    const refused = await fetch(`${app.url}/admin/project-settings`, { method: 'POST', body: new FormData() });
    expect(refused.status).to.equal(401);
  });
});
