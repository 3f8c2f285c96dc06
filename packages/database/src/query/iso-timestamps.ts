/**
 * Timestamps as Strapi answers them (`toISOString()`: `YYYY-MM-DDTHH:MM:SS.mmmZ`), made from what the database
 * hands over without building a Date to print: V8's `toISOString` formats through C's printf, about 2,000
 * instructions a value, and a 25-entry page has 75 of them. Each function answers only what it is sure of and
 * undefined otherwise, and the caller then takes the Date way; tests compare both ways value by value.
 */

const SQL_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/;

/**
 * `YYYY-MM-DD HH:MM:SS[.ffffff]`, how PostgreSQL prints a timestamp, as the
 * ISO string `new Date(…Z).toISOString()` gives (fraction cut to
 * milliseconds), without building the Date. Only unambiguous values: a day
 * past the 28th or an out-of-range field goes the Date way, which rolls it
 * over (or refuses it) as JavaScript does. Undefined when not this form.
 */
export function sqlTimestampToIso(text: string): string | undefined {
  const part = SQL_TIMESTAMP.exec(text);
  if (!part) return undefined;
  const [, year, month, day, hour, minute, second, fraction] = part;
  if (month < '01' || month > '12' || day < '01' || day > '28' || hour > '23' || minute > '59' || second > '59') return undefined;
  const millis = fraction === undefined ? '000' : fraction.length >= 3 ? fraction.slice(0, 3) : fraction.padEnd(3, '0');
  return `${year}-${month}-${day}T${hour}:${minute}:${second}.${millis}Z`;
}


/** `00` … `99`. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, value) => String(value).padStart(2, '0'));
const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00Z: from there on the ISO year has more than four digits. */
const YEAR_10000_MS = 253_402_300_800_000;

/**
 * Epoch milliseconds (how SQLite stores datetimes) as `new Date(ms).toISOString()` gives them, for whole
 * milliseconds from 1970 to the end of year 9999; undefined for anything else.
 */
export function epochMillisToIso(ms: number): string | undefined {
  if (!Number.isInteger(ms) || ms < 0 || ms >= YEAR_10000_MS) return undefined;
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  const millis = rest - second * 1000;
  const { year, month, day } = civilDate(days);
  const millisText = millis < 10 ? `00${millis}` : millis < 100 ? `0${millis}` : String(millis);
  return `${year}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T${TWO_DIGITS[hour]}:${TWO_DIGITS[minute]}:${TWO_DIGITS[second]}.${millisText}Z`;
}

/**
 * The proleptic Gregorian date of a day counted from 1970-01-01 (day 0 and after), by Howard Hinnant's
 * `civil_from_days`: eras of 400 years, years starting in March so the leap day comes last.
 */
function civilDate(days: number): { year: number; month: number; day: number } {
  const shifted = days + 719_468; // days from 0000-03-01
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}
