/**
 * The media library of Strapi 4.26.2's real admin panel in Chromium
 * (playwright-core), served by Tessera from a fresh example app with the
 * panel's cached build (plugins/admin/test/panel-build.ts): an admin uploads
 * two images, makes a folder, moves one image into it and gives the other an
 * alternative text, then replaces that image's file, crops it and deletes it. Each effect is checked in the database and through the
 * content API, not only on screen. Without Chromium or @strapi/admin the
 * test says why and skips, as the panel's own browser test does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { type Browser, type Page } from 'playwright-core';
import { openBrowser, type TestApp } from '@tessera/testing';
import { FILE_UID } from '@tessera/database';
import { signInToPanel, skipUnlessPanelRuns, startPanelApp } from '../../admin/test/panel-build';
import { FOLDER_UID } from '../src/contract';
import { recordedImages } from './admin-fixture';

const ADMIN = { firstname: 'Mia', lastname: 'Media', email: 'mia@example.com', password: 'Secret123' };
const WAIT = { timeout: 60_000 };

describe('media library in Chromium: upload, folder, move, alternative text, replace, crop, delete [sqlite]', () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let adminId: number;
  let apiToken: string;
  /** Media library requests the panel saw fail (4xx/5xx on /upload…). */
  const failed: string[] = [];

  before(async function () {
    this.timeout(15 * 60_000);
    skipUnlessPanelRuns(this);
    app = await startPanelApp();
    const registered = await app.post('/admin/register-admin', ADMIN);
    adminId = registered.body.data.user.id;
    apiToken = await app.fullAccessToken();
    // Requests off the app and page errors are recorded by the shared driver; this journey checks its own failures.
    ({ browser, page } = await openBrowser(app.url, { blocked: [], pageErrors: [] }, { viewport: { width: 1400, height: 1000 } }));
    page.on('response', (response) => {
      if (response.status() >= 400 && new URL(response.url()).pathname.startsWith('/upload')) failed.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
    await signInToPanel(page, app.url, ADMIN);
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  const file = (name: string) => app.app.db.query(FILE_UID).findOne({ where: { name }, select: ['id', 'name', 'alternativeText', 'folderPath', 'createdBy', 'updatedBy', 'hash', 'ext'], populate: { folder: { select: ['id'] } } });

  it('uploads two images from the media library: rows by this admin, bytes stored, listed by the content API', async function () {
    this.timeout(120_000);
    await page.goto(`${app.url}/admin/plugins/upload`);
    await page.waitForSelector('text=Upload your first assets', WAIT);
    const images = await recordedImages();
    await page.getByRole('button', { name: 'Add new assets' }).first().click();
    await page.waitForSelector('input[type="file"]', { state: 'attached', ...WAIT });
    await page.setInputFiles('input[type="file"]', [
      { name: 'first.png', mimeType: 'image/png', buffer: images.a },
      { name: 'second.png', mimeType: 'image/png', buffer: images.b },
    ]);
    await page.getByRole('button', { name: /Upload 2 assets/ }).click();
    await page.waitForSelector('text=Assets (2)', WAIT);
    for (const name of ['first.png', 'second.png']) {
      const row = (await file(name))!;
      expect([row.createdBy, row.updatedBy, row.folderPath, row.folder]).to.deep.equal([adminId, adminId, '/', null]);
      expect(fs.existsSync(path.join(app.dir, 'public', 'uploads', `${String(row.hash)}${String(row.ext)}`))).to.equal(true);
    }
    const listed = await app.get('/api/upload/files?sort=name:asc', { token: apiToken });
    expect(listed.body.map((entry: { name: string }) => entry.name)).to.deep.equal(['first.png', 'second.png']);
  });

  it('makes a folder in Strapi layout (pathId, path), by this admin', async function () {
    await page.getByRole('button', { name: 'Add new folder' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Holidays');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.waitForSelector('text=Folders (1)', WAIT);
    const folders = await app.app.db.query(FOLDER_UID).findMany({ select: ['name', 'pathId', 'path', 'createdBy'], populate: { parent: { select: ['id'] } } });
    expect(folders.map(({ id: _id, ...folder }) => folder)).to.deep.equal([{ name: 'Holidays', pathId: 1, path: '/1', createdBy: adminId, parent: null }]);
  });

  it('moves one image into the folder: its folder link and folderPath change, the other stays at the root', async function () {
    await page.locator('article', { hasText: 'second.png' }).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Move' }).click();
    await page.getByRole('dialog').getByText('Media Library', { exact: true }).click();
    const menu = page.locator('[id$="-listbox"]');
    await menu.getByRole('button', { name: 'Toggle' }).click();
    await menu.getByText('Holidays', { exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Move' }).click();
    await page.waitForSelector('text=Assets (1)', WAIT);
    const holidays = (await app.app.db.query(FOLDER_UID).findOne({ where: { name: 'Holidays' }, select: ['id'] }))!;
    const moved = (await file('second.png'))!;
    expect([moved.folderPath, moved.folder]).to.deep.equal(['/1', { id: holidays.id }]);
    expect((await file('first.png'))!.folderPath).to.equal('/');
    // The folder's card counts it, from the admin route the panel reads.
    await page.waitForSelector('text=0 folder, 1 asset', WAIT);
  });

  it("edits the other image's alternative text: saved, and answered by the content API", async function () {
    const card = page.locator('article', { hasText: 'first.png' });
    await card.hover();
    await card.getByRole('button').click();
    await page.getByRole('dialog').getByLabel('Alternative text').fill('A gradient at dusk');
    await page.getByRole('dialog').getByRole('button', { name: 'Finish' }).click();
    await page.waitForSelector('text=Details', { state: 'detached', ...WAIT });
    const edited = (await file('first.png'))!;
    expect([edited.alternativeText, edited.updatedBy, edited.folderPath]).to.deep.equal(['A gradient at dusk', adminId, '/']);
    const answered = await app.get(`/api/upload/files/${edited.id}`, { token: apiToken });
    expect(answered.body.alternativeText).to.equal('A gradient at dusk');
  });

  /** Opens the details dialog of the asset card named `name`. */
  async function openDetails(name: string): Promise<void> {
    const card = page.locator('article', { hasText: name });
    await card.hover();
    await card.getByRole('button').click();
    await page.waitForSelector('[role="dialog"] >> text=Details', WAIT);
  }
  const stored = (row: Record<string, unknown>) => path.join(app.dir, 'public', 'uploads', `${String(row.hash)}${String(row.ext)}`);

  it("replaces the first image's file from its details: the same row and URL, the new image's bytes", async function () {
    const before = (await file('first.png'))!;
    await openDetails('first.png');
    // Large enough for a thumbnail: the panel's cropper starts once the full image loads in place of the thumbnail.
    const { default: sharp } = await import('sharp');
    const larger = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 200, g: 90, b: 40 } } }).png().toBuffer();
    await page.setInputFiles('[role="dialog"] input[type="file"][name="file"]', { name: 'larger.png', mimeType: 'image/png', buffer: larger });
    await page.getByRole('dialog').getByRole('button', { name: 'Finish' }).click();
    await page.waitForSelector('text=Details', { state: 'detached', ...WAIT });
    const after = (await app.app.db.query(FILE_UID).findOne({ where: { id: before.id }, select: ['name', 'hash', 'ext', 'width', 'height', 'alternativeText', 'updatedBy'] }))!;
    expect([after.width, after.height, after.alternativeText, after.updatedBy]).to.deep.equal([400, 300, 'A gradient at dusk', adminId]);
    // As Strapi's replace: the hash and extension are kept, so the file's URL does not change; its bytes do.
    expect([after.hash, after.ext]).to.deep.equal([before.hash, before.ext]);
    const metadata = await sharp(fs.readFileSync(stored(after))).metadata();
    expect([metadata.width, metadata.height]).to.deep.equal([400, 300]);
  });

  it('crops it from its details (Crop the original asset): the stored image has the cropped size', async function () {
    const before = (await file('first.png'))!;
    await openDetails('first.png');
    await page.getByRole('dialog').getByRole('button', { name: 'Crop' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Stop cropping' }).waitFor(WAIT);
    // The cropping row's Crop is a menu (its label visually hidden): crop the original, or a copy.
    await page.getByRole('dialog').locator('button[aria-haspopup="menu"]').click();
    await page.getByRole('menuitem', { name: 'Crop the original asset' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Finish' }).click();
    await page.waitForSelector('text=Details', { state: 'detached', ...WAIT });
    const after = (await app.app.db.query(FILE_UID).findOne({ where: { id: before.id }, select: ['hash', 'ext', 'width', 'height'] }))!;
    // A crop is saved as a replace: the hash, so the URL, is kept.
    expect(after.hash).to.equal(before.hash);
    expect(Number(after.width)).to.be.above(0).and.below(400);
    expect(Number(after.height)).to.be.above(0).and.below(300);
    const { default: sharp } = await import('sharp');
    const metadata = await sharp(fs.readFileSync(stored(after))).metadata();
    expect([metadata.width, metadata.height]).to.deep.equal([after.width, after.height]);
  });

  it('deletes it from its details: the row and its bytes are gone', async function () {
    const before = (await file('first.png'))!;
    await openDetails('first.png');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    // The last asset of the root gone, the panel shows its folders alone (no Assets heading).
    await page.locator('article', { hasText: 'first.png' }).waitFor({ state: 'detached', ...WAIT });
    expect(await file('first.png')).to.equal(null);
    expect(fs.existsSync(stored(before))).to.equal(false);
  });

  it('saw no media library request fail', () => {
    expect(failed).to.deep.equal([]);
  });
});
