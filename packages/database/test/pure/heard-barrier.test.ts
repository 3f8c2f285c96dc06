/**
 * The barrier before reusing an answer (connection/heard-barrier.ts): every
 * asker gets a check that began after it asked; askers meanwhile share one;
 * back-to-back checks begin MIN_GAP_MS apart, and a lone asker's check begins
 * at once. The check here is a promise the test ends by hand, so what began
 * when is seen exactly.
 */
import { expect } from 'chai';
import { HeardBarrier, MIN_GAP_MS } from '../../src/connection/heard-barrier';

/**
 * A barrier over checks the test ends itself: `began` holds when each began, `end(i)` ends the i-th. The time is the
 * barrier's own mark, taken as it starts the check: a clock read inside the check could come a fraction of a
 * millisecond later on a busy machine (a pause between the two reads), and two such delays made a gap look short.
 */
function barrierOverManualChecks() {
  const began: number[] = [];
  const ends: Array<() => void> = [];
  const barrier: HeardBarrier = new HeardBarrier(
    () =>
      new Promise<void>((resolve) => {
        began.push(barrier['lastBegan']);
        ends.push(resolve);
      }),
  );
  return { barrier, began, end: (index: number) => ends[index]!() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('heard barrier', () => {
  it("begins a lone asker's check at once, in the call", () => {
    const { barrier, began } = barrierOverManualChecks();
    void barrier.heardUpToNow();
    expect(began).to.have.length(1);
  });

  it('gives an asker that comes while a check runs the next check, shared by every such asker', async () => {
    const { barrier, began, end } = barrierOverManualChecks();
    const settled: string[] = [];
    void barrier.heardUpToNow().then(() => settled.push('first'));
    const during = [1, 2, 3].map((n) => barrier.heardUpToNow().then(() => settled.push(`during ${n}`)));
    await tick();
    expect(began, 'no second check while the first runs').to.have.length(1);
    end(0);
    // However slow the machine: the second check begins once the gap has passed.
    while (began.length < 2) await tick();
    expect(settled, 'the first check answers its own asker only').to.deep.equal(['first']);
    expect(began, 'one check for the three askers that came meanwhile').to.have.length(2);
    end(1);
    await Promise.all(during);
    expect(settled).to.deep.equal(['first', 'during 1', 'during 2', 'during 3']);
  });

  it('begins back-to-back checks at least MIN_GAP_MS apart, and a check after a quiet spell at once', async () => {
    const { barrier, began, end } = barrierOverManualChecks();
    for (let index = 0; index < 5; index++) {
      const waiting = barrier.heardUpToNow();
      // The check answers at once: only the gap holds the next one back.
      while (began.length <= index) await tick();
      end(index);
      await waiting;
    }
    const gaps = began.slice(1).map((at, index) => at - began[index]!);
    for (const gap of gaps) expect(gap).to.be.at.least(MIN_GAP_MS);
    await sleep(MIN_GAP_MS + 5);
    void barrier.heardUpToNow();
    expect(began, 'begun in the call').to.have.length(6);
  });
});
