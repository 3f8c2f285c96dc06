/**
 * @webbio/strapi-plugin-scheduler: its bootstrap subscribes lifecycles on
 * every `api::` type with draft and publish; `beforeCreate`/`beforeUpdate`
 * keep the entry's `publishAt`/`archiveAt` (fields its admin panel adds to the
 * content manager's form, which hands them to the entity service) in
 * `event.state`, and the after hooks store them as rows of its own type
 * (`strapi.service('plugin::scheduler.scheduler')`). Its `strapi.cron` job,
 * every minute, publishes (`publishedAt` set) or archives (`publishedAt`
 * null) each entry whose date has passed, and removes the row. The test runs
 * the job's tick itself (`strapi.cron.jobs`), as node-schedule would.
 */
import { expect } from 'chai';
import type { TestApp } from '@tessera/testing';
import type { EcosystemSuite } from './article-app';

function schedulerJob(app: TestApp): TestApp['app']['cron']['jobs'][number] {
  const { jobs } = app.app.cron;
  const job = jobs.find((entry) => entry.name === 'scheduler');
  expect(job, 'its cron job').to.not.equal(undefined);
  return job!;
}

/** Its job's task is async: node-schedule does not wait for it, so its effect is waited for. */
async function tick(app: TestApp, done: () => Promise<boolean>): Promise<void> {
  schedulerJob(app).job.invoke();
  for (let waited = 0; waited < 5000 && !(await done()); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
}

async function rows(app: TestApp): Promise<Array<Record<string, unknown>>> {
  const found = await app.app.db.query('plugin::scheduler.scheduler').findMany({ orderBy: { id: 'asc' } });
  return found.map(({ uid, entryId, type, datetime }) => ({ uid, entryId, type, datetime: datetime === null ? null : new Date(datetime as string).toISOString() }));
}

async function publicTitles(app: TestApp): Promise<string[]> {
  const response = await app.get('/api/pages');
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title);
}

export const SCHEDULER: EcosystemSuite = {
  title: '@webbio/strapi-plugin-scheduler@1.1.0',
  packages: { '@webbio/strapi-plugin-scheduler': '1.1.0' },
  files: {
    'config/plugins.js': `module.exports = { scheduler: { enabled: true, config: { contentTypes: { 'api::page.page': {} } } } };`,
    'config/permissions.js': `module.exports = { public: ['api::page.page.find'] };`,
    'src/api/page/content-types/page/schema.json': {
      kind: 'collectionType',
      collectionName: 'pages',
      info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
      options: { draftAndPublish: true },
      attributes: { title: { type: 'string' } },
    },
  },
  tests: {
    'stores the dates given with an entry and publishes, then archives, it from its cron job': async (app) => {
      const job = schedulerJob(app);
      expect(job.options).to.deep.equal({ rule: '* * * * *' });
      expect(job.job.nextInvocation()!.getTime() - Date.now()).to.be.within(0, 60_000);
      const past = new Date(Date.now() - 1000);
      const later = new Date(Date.now() + 3_600_000);
      // What the content manager hands the entity service when its form has the plugin's fields.
      const draft = await app.app.entityService.create('api::page.page', { data: { title: 'Scheduled', publishedAt: null, publishAt: past.toISOString(), archiveAt: later.toISOString() } });
      const entryId = String(draft.id);
      expect(await rows(app)).to.deep.equal([
        { uid: 'api::page.page', entryId, type: 'publish', datetime: past.toISOString() },
        { uid: 'api::page.page', entryId, type: 'archive', datetime: later.toISOString() },
      ]);
      expect(await publicTitles(app)).to.deep.equal([]);
      await tick(app, async () => (await rows(app)).length === 1);
      expect(await publicTitles(app)).to.deep.equal(['Scheduled']);
      expect(await rows(app)).to.deep.equal([{ uid: 'api::page.page', entryId, type: 'archive', datetime: later.toISOString() }]);

      // An update with only an archive date: the archive row moves; a publish row without a date is written.
      await app.app.entityService.update('api::page.page', draft.id, { data: { archiveAt: past.toISOString() } });
      expect(await rows(app)).to.deep.equal([
        { uid: 'api::page.page', entryId, type: 'archive', datetime: past.toISOString() },
        { uid: 'api::page.page', entryId, type: 'publish', datetime: null },
      ]);
      await tick(app, async () => (await rows(app)).length === 1);
      expect(await publicTitles(app)).to.deep.equal([]);
      expect(await rows(app)).to.deep.equal([{ uid: 'api::page.page', entryId, type: 'publish', datetime: null }]);
      // An entry written without its fields is not scheduled.
      await app.app.entityService.create('api::page.page', { data: { title: 'Plain', publishedAt: null } });
      expect(await rows(app)).to.have.length(1);
    },
  },
};
