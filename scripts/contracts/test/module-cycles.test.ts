/**
 * No import cycle in packages/ and plugins/, type imports included (the
 * issue-26 rule `madge --circular` checks). The checker is first shown finding
 * cycles in a small graph, so the pass on the real sources means something.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { cycles, moduleGraph, workspaceSources } from './module-cycles';

const ROOT = path.resolve(__dirname, '../../..');

describe('module graph: no import cycles', () => {
  it('finds a cycle through a relative import, a type import and a package entry', () => {
    const sources: Record<string, string> = {
      '/w/packages/a/src/index.ts': "export * from './one';",
      '/w/packages/a/src/one.ts': "import type { Two } from './two';",
      '/w/packages/a/src/two.ts': "import { three } from '@w/b';",
      '/w/packages/b/src/index.ts': "import { one } from '@w/a';\nexport const three = 3;",
      '/w/packages/b/src/alone.ts': "import { three } from './index';",
    };
    const entries = new Map([['@w/a', '/w/packages/a/src/index.ts'], ['@w/b', '/w/packages/b/src/index.ts']]);
    const found = cycles(moduleGraph(Object.keys(sources), entries, (file) => sources[file]));
    expect(found).to.deep.equal([[
      '/w/packages/a/src/index.ts', '/w/packages/a/src/one.ts', '/w/packages/a/src/two.ts', '/w/packages/b/src/index.ts',
    ]]);
  });

  it('packages/ and plugins/ have none', () => {
    const { files, entries } = workspaceSources([path.join(ROOT, 'packages'), path.join(ROOT, 'plugins')]);
    expect(files.length).to.be.greaterThan(250);
    const found = cycles(moduleGraph(files, entries, (file) => fs.readFileSync(file, 'utf8')));
    expect(found.map((cycle) => cycle.map((file) => path.relative(ROOT, file)).join(' → '))).to.deep.equal([]);
  });
});
