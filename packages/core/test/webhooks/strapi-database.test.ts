import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { expect } from 'chai';
import { EXAMPLE_APP, requireReference, SHARED_REFERENCE, startApp, WebhookReceiver, type TestApp } from '@tessera/testing';

/**
 * The example app on a copy of the database Strapi 4.26.2 made: a webhook
 * row written as Strapi's admin writes one fires on a REST create, with no
 * configuration at all, and Strapi's table is left exactly as it was.
 */
describe('webhooks: on a copy of the Strapi v4 reference database [sqlite]', () => {
  let app: TestApp;
  let receiver: WebhookReceiver;
  let workDir: string;
  let copy: string;
  const schemaOf = (file: string) => {
    const db = new Sqlite(file, { readonly: true });
    try {
      return (db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'strapi_webhooks'`).get() as { sql: string }).sql;
    } finally {
      db.close();
    }
  };

  before(async function () {
    requireReference(this, 'strapi4-blog.sqlite');
    receiver = await WebhookReceiver.start();
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-webhooks-reference-'));
    copy = path.join(workDir, 'strapi4-blog.sqlite');
    fs.copyFileSync(path.join(SHARED_REFERENCE, 'strapi4-blog.sqlite'), copy);
    const db = new Sqlite(copy);
    try {
      // As Strapi's webhook store writes a row: JSON text for headers and events, 1 for enabled.
      db.prepare('INSERT INTO strapi_webhooks (name, url, headers, events, enabled) VALUES (?, ?, ?, ?, ?)').run(
        'rebuild site',
        receiver.url,
        JSON.stringify({ Authorization: 'Bearer from-strapi' }),
        JSON.stringify(['entry.create', 'entry.update']),
        1,
      );
      db.prepare('INSERT INTO strapi_webhooks (name, url, headers, events, enabled) VALUES (?, ?, ?, ?, ?)').run('disabled one', receiver.url, '{}', '["entry.create"]', 0);
    } finally {
      db.close();
    }
    app = await startApp({ dialect: 'sqlite', from: EXAMPLE_APP, sqliteFile: copy });
  });
  after(async () => {
    await app?.stop();
    await receiver?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('a fresh database gets strapi_webhooks exactly as Strapi creates it', async () => {
    const fresh = await startApp({ dialect: 'sqlite', from: EXAMPLE_APP, noListen: true });
    try {
      expect(schemaOf(fresh.database.sqliteFile!)).to.equal(schemaOf(path.join(SHARED_REFERENCE, 'strapi4-blog.sqlite')));
    } finally {
      await fresh.stop();
    }
  });

  it('fires the stored webhook on a REST create, with Strapi’s payload and the row’s headers', async () => {
    const schemaBefore = schemaOf(path.join(SHARED_REFERENCE, 'strapi4-blog.sqlite'));
    const token = await app.fullAccessToken();
    const created = await app.post('/api/articles', { data: { title: 'Written through Tessera', category: 1 } }, { token });
    expect(created.status).to.equal(200);
    const [request] = await receiver.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.requests, 'the disabled row sends nothing').to.have.length(1);
    expect(request!.headers).to.include({ authorization: 'Bearer from-strapi', 'x-strapi-event': 'entry.create', 'content-type': 'application/json' });
    expect(request!.headers).to.not.have.property('x-tessera-signature');
    expect(Object.keys(request!.json)).to.deep.equal(['event', 'createdAt', 'model', 'uid', 'entry']);
    expect(request!.json).to.deep.include({ event: 'entry.create', model: 'article', uid: 'api::article.article' });
    expect(request!.json.entry).to.include({ id: created.body.data.id, title: 'Written through Tessera' });
    expect(request!.json.entry.category).to.include({ id: 1 });
    expect(schemaOf(copy), 'strapi_webhooks unchanged').to.equal(schemaBefore);
    expect(await app.app.webhookStore.findWebhooks()).to.deep.equal([
      { id: 1, name: 'rebuild site', url: receiver.url, headers: { Authorization: 'Bearer from-strapi' }, events: ['entry.create', 'entry.update'], isEnabled: true },
      { id: 2, name: 'disabled one', url: receiver.url, headers: {}, events: ['entry.create'], isEnabled: false },
    ]);
  });
});
