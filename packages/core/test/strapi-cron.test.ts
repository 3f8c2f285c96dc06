import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

/**
 * `strapi.cron` and `config/cron-tasks` as Strapi v4 apps write them: tasks
 * loaded through `server.cron.tasks` when `server.cron.enabled`, both task
 * forms, `strapi.cron.add/remove/jobs`, and no job left scheduled after
 * `destroy`. Rules run every second so the test sees them fire.
 */
const CRON_TASKS = `
module.exports = {
  // The object form: a named task with its rule in options.
  ticker: {
    task: async ({ strapi }) => {
      const store = strapi.store({ type: 'cron', name: 'probe' });
      await store.set({ key: 'ticks', value: ((await store.get({ key: 'ticks' })) || 0) + 1 });
    },
    options: { rule: '* * * * * *', tz: 'Europe/Paris' },
  },
  // The rule-as-key form.
  '* * * * * *': async ({ strapi }) => {
    await strapi.store.set({ type: 'cron', name: 'probe', key: 'keyed', value: true });
  },
};
`;

function cronApp(enabled: boolean): Record<string, string> {
  return {
    'config/cron-tasks.js': CRON_TASKS,
    'config/server.js': `const cronTasks = require('./cron-tasks');\nmodule.exports = { cron: { enabled: ${enabled}, tasks: cronTasks } };\n`,
  };
}

/** Polls until `check` holds (the test's timeout bounds the wait: a busy machine is slower, never red). */
async function waitFor(check: () => Promise<boolean>): Promise<boolean> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 100));
  return true;
}

eachDatabase('strapi.cron and config/cron-tasks', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect, files: cronApp(true) });
  });
  after(() => app?.stop());

  it('runs the tasks of server.cron.tasks, in both forms, with { strapi }', async () => {
    expect(app.app.cron.jobs.map((job) => job.name)).to.deep.equal(['ticker', null]);
    const fired = await waitFor(async () => {
      const ticks = (await app.app.store.get({ type: 'cron', name: 'probe', key: 'ticks' })) as number | null;
      const keyed = await app.app.store.get({ type: 'cron', name: 'probe', key: 'keyed' });
      return (ticks ?? 0) >= 1 && keyed === true;
    });
    expect(fired).to.equal(true);
  });

  it('strapi.cron.add schedules at once on a running app; remove cancels by name', async () => {
    let runs = 0;
    app.app.cron.add({ counter: { task: () => { runs += 1; }, options: '* * * * * *' } });
    expect(await waitFor(async () => runs >= 1)).to.equal(true);
    const job = app.app.cron.jobs.find((spec) => spec.name === 'counter')!.job;
    app.app.cron.remove('counter');
    expect(app.app.cron.jobs.map((spec) => spec.name)).to.deep.equal(['ticker', null]);
    expect(job.nextInvocation()).to.equal(null);
  });

  it('an unparseable rule is an error naming the job', () => {
    expect(() => app.app.cron.add({ broken: { task: () => undefined, options: 'every tuesday' } })).to.throw(/cron job "broken": invalid rule "every tuesday"/);
    expect(app.app.cron.jobs.map((spec) => spec.name)).to.deep.equal(['ticker', null]);
  });

  it('destroy cancels every job', async () => {
    const jobs = app.app.cron.jobs.map((spec) => spec.job);
    const second = await startApp({ dialect, files: cronApp(true), noListen: true });
    const ownJobs = second.app.cron.jobs.map((spec) => spec.job);
    expect(ownJobs.every((job) => job.nextInvocation() !== null)).to.equal(true);
    await second.stop();
    expect(ownJobs.map((job) => job.nextInvocation())).to.deep.equal([null, null]);
    expect(second.app.cron.jobs).to.deep.equal([]);
    expect(jobs.every((job) => job.nextInvocation() !== null)).to.equal(true);
  });
});

eachDatabase('server.cron.enabled: false', (dialect) => {
  it('adds none of the configured tasks', async () => {
    const app = await startApp({ dialect, files: cronApp(false) });
    try {
      expect(app.app.cron.jobs).to.deep.equal([]);
    } finally {
      await app.stop();
    }
  });
});
