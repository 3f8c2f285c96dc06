/**
 * `npm test` starts this beside the test run: the ecosystem suite's one npm install (harness.ts), done while the
 * other test files run, so the suite, scheduled last, finds it made. Quiet when the registry does not answer: the
 * suite itself says why it skips. A failure here is left for the suite, which installs again and reports it.
 */
import { install, installPackages, registryProblem } from './test/harness';
import { SUITES } from './test/cases';
import { ADMIN_SIDES_OVERRIDES, ADMIN_SIDES_PACKAGES } from './test/admin-sides/app';
import { installMoreAdminSides } from './test/admin-sides-more/app';

async function main(): Promise<void> {
  if (await registryProblem()) return;
  await install(SUITES);
  // The plugins' admin sides suite has its own install (@strapi/admin and its peers beside three plugins).
  await installPackages(ADMIN_SIDES_PACKAGES, ADMIN_SIDES_OVERRIDES);
  await installMoreAdminSides();
}

main().catch(() => {
  process.exitCode = 1;
});
