/**
 * The Strapi-parity suites call requireReference in their `before` hook:
 * a missing ../shared/reference skips them locally and fails them in CI.
 */
import { expect } from 'chai';
import { requireReference } from '@tessera/testing';

describe('requireReference (Strapi-parity suites and a missing ../shared/reference)', () => {
  const savedCi = process.env.CI;
  afterEach(() => {
    if (savedCi === undefined) delete process.env.CI;
    else process.env.CI = savedCi;
  });

  /** A stand-in for mocha's hook context that records whether the suite asked to be skipped. */
  function hookContext(): { context: Mocha.Context; skipped: () => boolean } {
    let skipped = false;
    const context = { skip: () => { skipped = true; } } as unknown as Mocha.Context;
    return { context, skipped: () => skipped };
  }

  it('fails, never skips, under CI=true when a reference file is missing', () => {
    for (const ci of ['true', '1']) {
      process.env.CI = ci;
      const { context, skipped } = hookContext();
      expect(() => requireReference(context, 'strapi4-blog.sqlite', 'no-such-reference-file.txt')).to.throw(/CI=true and the Strapi v4 reference is missing \(.*no-such-reference-file\.txt\)/);
      expect(skipped()).to.equal(false);
    }
  });

  it('skips outside CI when a reference file is missing', () => {
    delete process.env.CI;
    const { context, skipped } = hookContext();
    requireReference(context, 'no-such-reference-file.txt');
    expect(skipped()).to.equal(true);
  });
});
