/**
 * Runs after the other users-permissions suites (files load in name order):
 * walks every response body they received — register, login, me, /users,
 * populated authors, roles, errors — and asserts that no private user field
 * appears as a key anywhere, nor any bcrypt hash or stored code as a value.
 */
import { expect } from 'chai';
import { recordedBodies } from './fixture';

const PRIVATE_KEYS = new Set(['password', 'resetPasswordToken', 'confirmationToken']);

function privateKeysIn(value: unknown, path: string, found: string[]): void {
  if (Array.isArray(value)) value.forEach((item, index) => privateKeysIn(item, `${path}[${index}]`, found));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (PRIVATE_KEYS.has(key)) found.push(`${path}.${key}`);
      privateKeysIn(child, `${path}.${key}`, found);
    }
  }
}

describe('users-permissions: every response body of the suites', () => {
  it('holds no password, resetPasswordToken or confirmationToken key, and no bcrypt hash', () => {
    // The walk is only meaningful over the suites' traffic: at least the flows that return users must be in it.
    const requests = recordedBodies.map((body) => body.request);
    for (const flow of ['POST /api/auth/local/register', 'POST /api/auth/local', 'GET /api/users/me', 'GET /api/users?sort=id:asc', 'PUT /api/users/']) {
      expect(requests.some((request) => request.startsWith(flow)), `no ${flow} in the recorded traffic`).to.equal(true);
    }
    const found: string[] = [];
    for (const { request, text } of recordedBodies) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        continue;
      }
      privateKeysIn(parsed, request, found);
      if (/\$2[aby]\$\d\d\$/.test(text)) found.push(`${request}: a bcrypt hash`);
    }
    expect(found).to.deep.equal([]);
    expect(recordedBodies.length).to.be.greaterThan(200);
  });
});
