/**
 * PostgreSQL timestamps read as text become Strapi's ISO strings without a
 * Date (codec.ts `sqlTimestampToIso`). The answer must be exactly what the
 * Date way gives, `new Date('<text with T>Z').toISOString()`, for every value
 * it accepts, and it must leave to the Date way whatever it is unsure of.
 */
import { expect } from 'chai';
import { sqlTimestampToIso } from '../../src/query/codec';

function viaDate(text: string): string {
  return new Date(`${text.replace(' ', 'T')}Z`).toISOString();
}

describe('sqlTimestampToIso', () => {
  it('gives what the Date way gives, for 20,000 generated timestamps with 0 to 6 fraction digits', () => {
    let state = 7;
    const next = (below: number) => {
      state = (state * 1664525 + 1013904223) >>> 0;
      return state % below;
    };
    const pad = (value: number, width: number) => String(value).padStart(width, '0');
    let accepted = 0;
    for (let index = 0; index < 20_000; index++) {
      const digits = next(7);
      const fraction = digits === 0 ? '' : `.${pad(next(10 ** digits), digits)}`;
      const text = `${pad(1 + next(9999), 4)}-${pad(1 + next(12), 2)}-${pad(1 + next(31), 2)} ${pad(next(24), 2)}:${pad(next(60), 2)}:${pad(next(60), 2)}${fraction}`;
      const iso = sqlTimestampToIso(text);
      if (iso === undefined) continue;
      accepted++;
      expect(iso, text).to.equal(viaDate(text));
    }
    // Days 29 to 31 go the Date way (3 in 31 of the values); every other one is answered here.
    expect(accepted).to.be.within(17_600, 18_500);
  });

  it('cuts the fraction to milliseconds as Date does, never rounding', () => {
    expect(sqlTimestampToIso('2024-01-01 00:00:00.999999')).to.equal('2024-01-01T00:00:00.999Z');
    expect(sqlTimestampToIso('2024-01-01 00:00:00.5')).to.equal('2024-01-01T00:00:00.500Z');
    expect(sqlTimestampToIso('2024-01-01 00:00:00.05')).to.equal('2024-01-01T00:00:00.050Z');
    expect(sqlTimestampToIso('2024-01-01 23:59:59')).to.equal('2024-01-01T23:59:59.000Z');
    expect(sqlTimestampToIso('0001-01-01 00:00:00')).to.equal(viaDate('0001-01-01 00:00:00'));
  });

  it('leaves to the Date way what Date would roll over or refuse, and what is not this form', () => {
    for (const text of [
      '2024-02-30 00:00:00', // Date rolls it over to March 1st
      '2023-02-29 12:00:00',
      '2024-01-31 00:00:00',
      '2024-01-01 24:00:00', // Date gives the next day
      '2024-13-01 00:00:00',
      '2024-00-10 00:00:00',
      '2024-01-00 00:00:00',
      '2024-01-01 00:60:00',
      '2024-01-01 00:00:60',
      '2024-01-01 00:00:00.1234567',
      '2024-01-01T00:00:00',
      '2024-01-01 00:00:00+02',
      '2024-01-01 00:00:00 BC',
      '12024-01-01 00:00:00',
      '2024-01-01 00:00',
      'infinity',
      '',
    ]) {
      expect(sqlTimestampToIso(text), text).to.equal(undefined);
    }
  });
});
