/**
 * The history checker in CI: seeded rounds of 20–50 concurrent requests on
 * both databases, each round explained by some serial order of its requests
 * (see ../checker.ts). `npm run test:concurrency -- --rounds 500` runs the
 * same test longer (TESSERA_CONCURRENCY_ROUNDS / _SEED).
 */
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { runRounds } from '../rounds';

const ROUNDS = Number(process.env.TESSERA_CONCURRENCY_ROUNDS ?? 8);
const SEED = Number(process.env.TESSERA_CONCURRENCY_SEED ?? 16);

eachDatabase('concurrent history', (dialect) => {
  let app: TestApp;
  let token: string;

  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
    token = await app.fullAccessToken();
  });
  after(() => app.stop());

  it(`${ROUNDS} rounds of 20–50 concurrent creates, updates, deletes, connects and publishes (seed ${SEED}) match a serial order`, async function () {
    this.timeout(Math.max(120_000, ROUNDS * 5000));
    const started = Date.now();
    const result = await runRounds(app, token, { seed: SEED, rounds: ROUNDS, requests: [20, 50] });
    if (result.violation) expect.fail(`\n${result.violation}`);
    expect(result.rounds).to.equal(ROUNDS);
    // The mix must really collide: some requests lost their race (404: deleted first; 400: a target deleted first).
    expect(result.statuses[200], 'successful requests').to.be.greaterThan(0);
    expect(result.statuses[404], 'requests that lost a race to a delete').to.be.greaterThan(0);
    expect(result.statuses[400], 'relation writes whose target was gone').to.be.greaterThan(0);
    if (process.env.TESSERA_CONCURRENCY_ROUNDS) {
      console.log(`      ${dialect}: ${result.rounds} rounds, ${result.requests} requests, ${JSON.stringify(result.statuses)}, at most ${result.maxSteps} search steps a round, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  });
});
