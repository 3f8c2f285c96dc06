/**
 * Mocha's spec reporter, closing with the plain line CI reads:
 * "N passed, N failed" (", N skipped" when some were pending).
 */
const Mocha = require('mocha');

class SpecWithTotals extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const { passes = 0, failures = 0, pending = 0 } = runner.stats || {};
      const skipped = pending > 0 ? `, ${pending} skipped` : '';
      // Printed after the spec summary, on its own line.
      process.stdout.write(`\n${passes} passed, ${failures} failed${skipped}\n`);
    });
  }
}

module.exports = SpecWithTotals;
