/**
 * SQLite faults a real server meets: another process holding the write lock
 * past the busy timeout, and a full disk. Both must be a 503 envelope on the
 * write (never a 500, never a hang), leave reads working, change nothing, and
 * heal by themselves once the cause is gone. The full disk is a real one: the
 * database lives on a small tmpfs the test mounts and fills.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { EXAMPLE_APP, startApp, type TestApp } from '@tessera/testing';

const UNAVAILABLE = { status: 503, name: 'ServiceUnavailableError' };

describe('faults: SQLite busy and disk full [sqlite]', () => {
  describe('another process holds the write lock', () => {
    let app: TestApp;
    let token: string;
    before(async () => {
      app = await startApp({ dialect: 'sqlite', from: EXAMPLE_APP });
      token = await app.fullAccessToken();
    });
    after(() => app?.stop());

    it('a write waits out the busy timeout, then is a 503; reads go on; once the lock is gone, writes work', async function () {
      const before = await app.post('/api/categories', { data: { name: 'before' } }, { token });
      expect(before.status).to.equal(200);
      const holder = new Database(app.database.sqliteFile!);
      holder.exec('BEGIN IMMEDIATE');
      try {
        const started = Date.now();
        const pending = app.post('/api/categories', { data: { name: 'blocked' } }, { token });
        let writeSettled = false;
        void pending.then(() => (writeSettled = true));
        // The wait is asynchronous: the same process keeps answering reads meanwhile (the read is answered while the
        // write still waits: an order, not a duration, so the machine's load cannot change the verdict).
        await new Promise((resolve) => setTimeout(resolve, 200));
        const read = await app.get('/api/categories?fields[0]=name', { token });
        expect(writeSettled, 'the read waited for the blocked write').to.equal(false);
        expect(read.status).to.equal(200);
        expect(read.body.data.map((entry: { attributes: { name: string } }) => entry.attributes.name)).to.deep.equal(['before']);
        const blocked = await pending;
        expect(blocked.status).to.equal(503);
        expect(blocked.body.data).to.equal(null);
        expect(blocked.body.error).to.include(UNAVAILABLE);
        // It waited out the busy timeout (5 s) before giving up: a lower bound, true however busy the machine is.
        expect(Date.now() - started).to.be.at.least(4000);
      } finally {
        holder.exec('ROLLBACK');
        holder.close();
      }
      const after = await app.post('/api/categories', { data: { name: 'after' } }, { token });
      expect(after.status).to.equal(200);
      const names = (await app.get('/api/categories?fields[0]=name&sort=id', { token })).body.data.map((entry: { attributes: { name: string } }) => entry.attributes.name);
      expect(names).to.deep.equal(['before', 'after']);
    });

    it('a write that finds the lock taken waits for it and succeeds once it is released', async () => {
      const holder = new Database(app.database.sqliteFile!);
      holder.exec('BEGIN IMMEDIATE');
      setTimeout(() => {
        holder.exec('ROLLBACK');
        holder.close();
      }, 800);
      const started = Date.now();
      const waited = await app.post('/api/categories', { data: { name: 'waited' } }, { token });
      expect(waited.status).to.equal(200);
      // It waited for the release (800 ms after the start): a lower bound, true however busy the machine is.
      expect(Date.now() - started).to.be.at.least(700);
      expect(waited.body.data.attributes.name).to.equal('waited');
    });
  });

  describe('the disk is full', () => {
    let mountPoint: string | undefined;
    let app: TestApp | undefined;
    let token: string;
    before(async function () {
      mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-tmpfs-'));
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint], { stdio: 'pipe' });
      } catch (error) {
        fs.rmdirSync(mountPoint);
        mountPoint = undefined;
        // Mounting needs root; CI machines have it, so there this is a failure, not a skip.
        if (process.env.CI === 'true') throw error;
        this.skip();
      }
      app = await startApp({ dialect: 'sqlite', from: EXAMPLE_APP, database: { dialect: 'sqlite', sqliteFile: path.join(mountPoint, 'data.db') } });
      token = await app.fullAccessToken();
    });
    after(async () => {
      await app?.stop();
      if (mountPoint) {
        execFileSync('umount', [mountPoint]);
        fs.rmdirSync(mountPoint);
      }
    });

    it('a write is a 503 and stores nothing; reads go on; freeing space heals it without a restart', async () => {
      expect((await app!.post('/api/articles', { data: { title: 'fits' } }, { token })).status).to.equal(200);
      const filler = path.join(mountPoint!, 'filler');
      fillDisk(filler);
      const body = 'x'.repeat(512 * 1024);
      const refused = await app!.post('/api/articles', { data: { title: 'does not fit', body } }, { token });
      expect(refused.status).to.equal(503);
      expect(refused.body.data).to.equal(null);
      expect(refused.body.error).to.include(UNAVAILABLE);
      const read = await app!.get('/api/articles?fields[0]=title', { token });
      expect(read.status).to.equal(200);
      expect(read.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.deep.equal(['fits']);

      fs.rmSync(filler);
      const healed = await app!.post('/api/articles', { data: { title: 'fits again', body } }, { token });
      expect(healed.status).to.equal(200);
      const titles = (await app!.get('/api/articles?fields[0]=title&sort=id', { token })).body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title);
      expect(titles).to.deep.equal(['fits', 'fits again']);
    });
  });
});

/** Writes to `file` until the file system says it is full. */
function fillDisk(file: string): void {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
}
