/**
 * What the community app's frontend sends, in its order: sign-up with profile fields, login, the first comment
 * after boot (its lifecycle reads the request context), the list, /users/me (wrapped by the app's extension),
 * the logout action the extension adds, the service reading with a filter that names no attribute, and the app's
 * own plugin, which uses packages Strapi's dependencies bring (purest, jwk-to-pem, url-join, users-permissions' admin half).
 * Used by the test against Tessera and by `node community-requests.js <url>` to record Strapi's answers.
 */
'use strict';

async function send(base, method, path, { body, jwt, headers = {} } = {}) {
  const response = await fetch(base + path, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(jwt ? { authorization: `Bearer ${jwt}` } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { method, path, status: response.status, body: parsed };
}

/** Dates and JWTs differ between runs and servers: shown as their kind. */
function stable(value) {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, key === 'jwt' ? '<jwt>' : /At$/.test(key) && typeof item === 'string' ? '<date>' : stable(item)]),
    );
  }
  return value;
}

async function frontendRequests(base) {
  const answers = [];
  const ask = async (...args) => {
    const answer = await send(base, ...args);
    answers.push({ ...answer, body: stable(answer.body) });
    return answer;
  };
  const signUp = await ask('POST', '/api/profiles/register', {
    body: { username: 'ada', email: 'ada@example.com', password: 'Secret123', displayName: 'Ada L.', bio: 'Writes notes' },
  });
  const login = await ask('POST', '/api/auth/local', { body: { identifier: 'ada@example.com', password: 'Secret123' } });
  const jwt = login.body && login.body.jwt;
  const userId = login.body && login.body.user && login.body.user.id;
  void signUp;
  await ask('POST', '/api/comments', { jwt, headers: { 'x-channel': 'mobile' }, body: { data: { body: 'First!', authorId: userId, user: userId } } });
  await ask('POST', '/api/comments', { jwt, body: { data: { body: 'Second', authorId: userId } } });
  await ask('GET', '/api/comments?populate=*&sort=id', { jwt });
  await ask('GET', '/api/users/me?populate=comments', { jwt });
  await ask('GET', `/api/users/${userId}?populate[comments][sort]=id`, { jwt });
  await ask('GET', '/api/auth/logout');
  await ask('GET', '/api/comments-recent');
  await ask('GET', '/api/social-login/status');
  return answers;
}

module.exports = { frontendRequests };

if (require.main === module) {
  frontendRequests(process.argv[2] || 'http://127.0.0.1:1337').then(
    (answers) => console.log(JSON.stringify({ strapi: process.argv[3] || '4.26.2', answers }, null, 2)),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
