/**
 * Mocha's spec reporter, closing with the plain line CI reads:
 * "N passed, N failed" (", N skipped" when some were pending); under
 * scripts/test.js (TESSERA_TEST_STATS) the totals go to that file instead and
 * the runner prints the line after its leak check.
 */
const Mocha = require('mocha');

class SpecWithTotals extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const { passes = 0, failures = 0, pending = 0 } = runner.stats || {};
      // Under scripts/test.js the runner prints the line, after its check for processes and files left behind.
      if (process.env.TESSERA_TEST_STATS) {
        require('node:fs').writeFileSync(process.env.TESSERA_TEST_STATS, JSON.stringify({ passes, failures, pending }));
        return;
      }
      const skipped = pending > 0 ? `, ${pending} skipped` : '';
      // Printed after the spec summary, on its own line.
      process.stdout.write(`\n${passes} passed, ${failures} failed${skipped}\n`);
    });
  }
}

module.exports = SpecWithTotals;
