import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { REPO_ROOT } from '@tessera/testing';

/**
 * `tessera start` limits how far old space grows past what a collection kept (heap-growth.ts): a process that keeps
 * about 25 MiB alive while promoting garbage peaks at well under half the old space V8's own growth lets it reach.
 */
const MODULE = path.join(REPO_ROOT, 'packages/cli/dist/src/heap-growth.js');

/** The peak old-space size (MiB) of a child that promotes garbage around a steady live set; `setup` runs first. */
function peakOldSpace(setup: string, nodeFlags: string[] = []): number {
  const script = `
    const v8 = require('node:v8');
    ${setup}
    const ring = new Array(100000);
    let peak = 0;
    for (let i = 0; i < 1000000; i++) {
      ring[i % ring.length] = { id: i, text: 'x'.repeat(50) + i, list: [i, i + 1, i + 2], nested: { a: i, b: String(i) } };
      if (i % 1000 === 0) peak = Math.max(peak, v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space').space_size);
    }
    process.stdout.write(String(peak / 2 ** 20));`;
  // Collections on the main thread only: how far old space gets then depends on the allocations, not on how soon a
  // busy machine's helper threads finish marking.
  return Number(execFileSync(process.execPath, ['--single-threaded-gc', ...nodeFlags, '-e', script], { encoding: 'utf8' }));
}

describe('tessera start: old space grows by a fifth past what a collection kept', () => {
  it('keeps the peak old space well under what V8 lets it reach by default', function () {
    this.timeout(60_000);
    const own = peakOldSpace('');
    const limited = peakOldSpace(`if (require(${JSON.stringify(MODULE)}).limitHeapGrowth() !== true) throw new Error('not set');`);
    expect(limited, `limited ${limited.toFixed(1)} MiB, V8's own ${own.toFixed(1)} MiB`).to.be.below(own * 0.6);
  });

  it("leaves the operator's own setting alone", function () {
    this.timeout(60_000);
    const check = `if (require(${JSON.stringify(MODULE)}).limitHeapGrowth() !== false) throw new Error('set over the operator');`;
    // The operator lets old space grow fourfold, as V8 may by itself: the peak stays that high.
    const operator = peakOldSpace(check, ['--heap-growing-percent=300']);
    const limited = peakOldSpace(`require(${JSON.stringify(MODULE)}).limitHeapGrowth();`);
    expect(operator, `operator's ${operator.toFixed(1)} MiB, limited ${limited.toFixed(1)} MiB`).to.be.above(limited * 1.6);
  });
});
