/**
 * The builder's name rules are written without patterns that backtrack (the ReDoS scan refuses
 * `([A-Z]+)([A-Z][a-z])`): here they are compared with the pattern forms, as first written after lodash and
 * `@sindresorhus/slugify`, on many short names, so both decide alike.
 */
import { expect } from 'chai';
import { seededRandom } from '@tessera/testing';
import { pluralize, slugify, snakeCase } from '../src/builder/names';

function snakeCaseByPatterns(value: string): string {
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .replace(/([0-9])([A-Za-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase())
    .join('_');
}

function slugifyByPatterns(value: string, separator: '-' | '_'): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z\d]+)/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, separator)
    .replace(new RegExp(`^\\${separator}+|\\${separator}+$`, 'g'), '');
}

describe('content-type builder names: linear rules decide as the pattern forms', () => {
  const ALPHABET = ['A', 'B', 'a', 'b', '1', '-', '_', ' ', 'é', 'S', 'O', 'N'];
  const random = seededRandom(4262);
  const names = Array.from({ length: 20_000 }, () => Array.from({ length: 1 + Math.floor(random() * 12) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join(''));
  names.push('JSONData', 'blogPost', 'BLOG_POST', 'Hero Banner', 'ABCdEFg', 'Crème brûlée');

  it('snakeCase', () => {
    for (const name of names) expect(snakeCase(name), name).to.equal(snakeCaseByPatterns(name));
  });

  it('slugify, with - and _', () => {
    for (const name of names) {
      expect(slugify(name, '-'), name).to.equal(slugifyByPatterns(name, '-'));
      expect(slugify(name, '_'), name).to.equal(slugifyByPatterns(name, '_'));
    }
  });

  it('pluralize: irregular words by their ending, whatever the case', () => {
    expect(['Person', 'SalesPerson', 'child', 'MOUSE'].map(pluralize)).to.deep.equal(['People', 'SalesPeople', 'children', 'MICE']);
  });
});
