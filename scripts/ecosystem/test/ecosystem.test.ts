/**
 * Published Strapi v4 plugins, installed from npm at pinned versions and run
 * unchanged on Tessera (cases.ts), on every database. Skipped, with the
 * reason printed, when the npm registry cannot be reached or when a plugin
 * needs a part of the `strapi` object the kernel does not offer yet.
 * `npm run test:ecosystem` runs only this suite.
 */
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { install, registryProblem, startCase, unmetNeeds, type Installation } from './harness';
import { SUITES } from './cases';

let ready: Promise<{ installed?: Installation; skip?: string; unmet: Map<string, string[]> }> | undefined;

/** Once per run: the registry, the one install, and which cases the kernel can boot. */
function prepare(): NonNullable<typeof ready> {
  ready ??= (async () => {
    const problem = await registryProblem();
    if (problem) return { skip: problem, unmet: new Map() };
    const installed = await install(SUITES);
    const bare = await startApp({ dialect: 'sqlite', noListen: true });
    try {
      return { installed, unmet: new Map(SUITES.map((suite) => [suite.title, unmetNeeds(suite, bare.app)])) };
    } finally {
      await bare.stop();
    }
  })();
  return ready;
}

for (const suite of SUITES) {
  eachDatabase(`Strapi ecosystem: ${suite.title}`, (dialect) => {
    let app: TestApp | undefined;

    before(async function () {
      this.timeout(12 * 60_000);
      const { installed, skip, unmet } = await prepare();
      const missing = unmet.get(suite.title) ?? [];
      const reason = skip ?? (missing.length > 0 ? `needs ${missing.join(', ')}, which the kernel does not offer yet` : undefined);
      if (reason || !installed) {
        console.log(`      skipped: ${reason}`);
        this.skip();
      }
      app = await startCase(suite, dialect, installed!);
    });
    after(async () => {
      await app?.stop();
    });

    for (const [title, test] of Object.entries(suite.tests)) it(title, () => test(app!));
  });
}
