/**
 * The email-template checks scan by index (Strapi's regular expressions backtrack polynomially: the ReDoS scan
 * refuses them). Here they are compared with those expressions on many short strings made of the characters that
 * matter, so the scan decides exactly as Strapi's patterns do.
 */
import { expect } from 'chai';
import { seededRandom } from '@tessera/testing';
import { isValidEmailTemplate, senderOf } from '../src/settings/email-templates';

const ALPHABET = ['<', '%', '=', '>', ' ', 'a', '$', '{', '}', '"', 'U', 'R', 'L', '.', '\n', '\t'];
const AUTHORIZED = new Set(['URL', 'ADMIN_URL', 'SERVER_URL', 'CODE', 'USER', 'USER.email', 'USER.username', 'TOKEN']);

// Strapi's patterns, used here on short strings only.
function strapiValid(template: string): boolean {
  if (/<%[^=][\s\S]*?%>/.test(template) || /\$\{[^{}]*\}/.test(template)) return false;
  for (const match of template.matchAll(/<%=([\s\S]+?)%>/g)) if (!AUTHORIZED.has(match[1]!.trim())) return false;
  return true;
}
function strapiSender(from: string): { name: string; email: string } {
  const match = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(from);
  return match ? { name: match[1]!.replace(/^"|"$/g, ''), email: match[2]! } : { name: '', email: from.trim() };
}

describe('users-permissions email templates: index scans decide as Strapi’s patterns', () => {
  const random = seededRandom(20261129);
  const samples = Array.from({ length: 20_000 }, () => Array.from({ length: 1 + Math.floor(random() * 14) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join(''));
  samples.push('<%= URL %>?code=<%= CODE %>', '<% code %>', '<%=%>', '<%= URL%><%', 'Name <a@b.c>', ' "Ann" <ann@x.y> ', 'a@b.c', '<a@b.c> x');

  it('isValidEmailTemplate', () => {
    for (const sample of samples) expect(isValidEmailTemplate(sample), JSON.stringify(sample)).to.equal(strapiValid(sample));
  });

  it('senderOf', () => {
    for (const sample of samples) expect(senderOf(sample), JSON.stringify(sample)).to.deep.equal(strapiSender(sample));
  });
});
