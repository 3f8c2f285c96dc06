/**
 * The community app (fixtures/community-app) as its developer has it on Tessera: its dependencies installed from
 * npm (`@strapi/*` excluded: Tessera provides them) together with the packages its code requires that a Strapi app
 * gets from Strapi's own dependencies (url-join, purest, jwk-to-pem), which the boot's error asks for
 * (loader/strapi-hoisted.ts; community-app.test.ts checks that error). One `npm install`: a second one without the
 * app's package.json would prune what the first installed.
 */
import path from 'node:path';
import { hoistedByStrapi, missingFrom } from '@tessera/core/dist/src/loader/strapi-hoisted';
import { appFolder, dependencies, npmInstall, providedByTessera, registryUnreachable } from './app-folder';

export const COMMUNITY_FIXTURE = path.join(__dirname, 'fixtures', 'community-app');

/**
 * The `before` hook's folder, `extra` (`jest@29.7.0`) installed with the rest; skips the suite, saying why, when the
 * npm registry does not answer.
 */
export function communityAppFolder(suite: Mocha.Context, extra: string[] = []): string {
  const unreachable = registryUnreachable();
  if (unreachable) {
    console.log(`    skipped: ${unreachable}`);
    suite.skip();
  }
  const dir = appFolder(COMMUNITY_FIXTURE, { variable: 'COMMUNITY_APP_MIRROR', folder: '.', rev: 'HEAD' });
  const thirdParty = Object.entries(dependencies(dir))
    .filter(([name]) => !providedByTessera(name))
    .map(([name, range]) => `${name}@${range}`);
  const hoisted = missingFrom(dir).map((name) => `${name}@${hoistedByStrapi(name)!.version}`);
  npmInstall(dir, [...thirdParty, ...hoisted, ...extra]);
  return dir;
}
