/**
 * Timestamps become Strapi's ISO strings without a Date (iso-timestamps.ts):
 * PostgreSQL's text (`sqlTimestampToIso`) and SQLite's epoch milliseconds
 * (`epochMillisToIso`). The answer must be exactly what the Date way gives
 * for every value accepted, and whatever is unsure is left to the Date way.
 */
import { expect } from 'chai';
import { epochMillisToIso, sqlTimestampToIso } from '../../src/query/iso-timestamps';

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

describe('epochMillisToIso', () => {
  it('gives what new Date(ms).toISOString() gives, for 50,000 generated instants from 1970 to 9999', () => {
    let state = 11;
    const next = () => {
      state = (state * 1664525 + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    for (let index = 0; index < 50_000; index++) {
      const ms = Math.floor(next() * next() * 253_402_300_800_000);
      expect(epochMillisToIso(ms), String(ms)).to.equal(new Date(ms).toISOString());
    }
  });

  it('is exact at the edges: epoch, leap days, century years, year and day ends', () => {
    const instants = [
      '1970-01-01T00:00:00.000Z',
      '1972-02-29T23:59:59.999Z',
      '1999-12-31T23:59:59.999Z',
      '2000-02-29T12:00:00.001Z',
      '2000-03-01T00:00:00.010Z',
      '2024-01-01T00:02:00.100Z',
      '2100-02-28T23:59:59.999Z',
      '2100-03-01T00:00:00.000Z',
      '2400-02-29T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ];
    for (const iso of instants) expect(epochMillisToIso(Date.parse(iso)), iso).to.equal(iso);
  });

  it('leaves to the Date way what is before 1970, past year 9999 or not a whole millisecond', () => {
    for (const ms of [-1, -86_400_000, 253_402_300_800_000, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(epochMillisToIso(ms), String(ms)).to.equal(undefined);
    }
  });
});
