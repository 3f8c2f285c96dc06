/**
 * File names from clients are display text only. They are neutralised
 * (no path, no NUL or control characters, bounded length) before they are
 * stored as `name`; what is stored on disk or in a bucket is always the
 * generated `hash` plus an extension the server chose.
 */
import crypto from 'node:crypto';
import path from 'node:path';

const MAX_NAME_LENGTH = 255;
const MAX_SLUG_LENGTH = 100;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/** The last path segment of a client file name, without control characters, at most 255 characters. */
export function sanitizeName(raw: unknown, fallback = 'file'): string {
  const text = typeof raw === 'string' ? raw : '';
  const base = text.replace(CONTROL_CHARACTERS, '').split(/[\\/]/).pop()!.trim();
  const name = base === '' || base === '.' || base === '..' ? fallback : base;
  return truncate(name, MAX_NAME_LENGTH);
}

/**
 * Strapi's hash: the name without its extension, slugified with `_` (case
 * kept, camelCase split, accents folded), then `_` and 10 random hex digits.
 */
export function generateHash(name: string): string {
  return `${slugify(path.parse(name).name)}_${crypto.randomBytes(5).toString('hex')}`;
}

/** Latin letters that do not decompose into a base letter plus accents. */
const LETTERS: Record<string, string> = { ø: 'o', Ø: 'O', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ß: 'ss', đ: 'd', Đ: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'TH', ð: 'd', Ð: 'D' };

export function slugify(text: string): string {
  const slug = text
    .replace(/[øØæÆœŒßđĐłŁþÞðÐ]/g, (letter) => LETTERS[letter])
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    // `(?<!_)`: a trailing run is matched from its first underscore only, so the scan stays linear (no ReDoS).
    .replace(/^_+|(?<!_)_+$/g, '');
  return truncate(slug, MAX_SLUG_LENGTH).replace(/(?<!_)_+$/, '') || 'file';
}

/** The extension of a client name (`.png`), only when it is short and plain; else ''. */
export function extensionOf(name: string): string {
  const ext = path.extname(name).toLowerCase();
  return /^\.[a-z0-9]{1,16}$/.test(ext) ? ext : '';
}

function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? chars.slice(0, max).join('') : text;
}
