/**
 * Every answer a users-permissions suite receives is walked for private user fields as it arrives
 * (fixture.ts `recording`). Here: the walk finds what it must, and a recording app's own flows pass it.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { privateFieldsIn, register, startUpApp } from './fixture';

describe('users-permissions: the private-field walk of every answer', () => {
  it('finds a private key at any depth, in lists and under any name, and a bcrypt hash anywhere', () => {
    const body = JSON.stringify({ data: [{ id: 1, attributes: { author: { data: { attributes: { password: 'x' } } } } }], meta: { resetPasswordToken: null } });
    expect(privateFieldsIn(body, 'GET /api/x')).to.deep.equal(['GET /api/x.data[0].attributes.author.data.attributes.password', 'GET /api/x.meta.resetPasswordToken']);
    expect(privateFieldsIn('{"user":{"confirmationToken":"c"}}', 'POST /a')).to.deep.equal(['POST /a.user.confirmationToken']);
    expect(privateFieldsIn('<p>$2b$10$abcdefghijklmnopqrstuv</p>', 'GET /page')).to.deep.equal(['GET /page: a bcrypt hash']);
    expect(privateFieldsIn('{"data":{"username":"password","email":"a@b.c"}}', 'GET /me')).to.deep.equal([]);
  });
});

eachDatabase('users-permissions: the private-field walk of every answer', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startUpApp(dialect);
  });
  after(() => app?.stop());

  it("walks the answers of a recording app's user flows, which hold none", async () => {
    const { jwt, id } = await register(app, 'walker');
    expect((await app.post('/api/auth/local', { identifier: 'walker', password: 'Passw0rd!' })).status).to.equal(200);
    expect((await app.get('/api/users/me', { token: jwt })).status).to.equal(200);
    const full = await app.fullAccessToken();
    expect((await app.get('/api/users?sort=id:asc', { token: full })).body.map((user: { id: number }) => user.id)).to.include(id);
    expect((await app.put(`/api/users/${id}`, { username: 'walked' }, { token: full })).status).to.equal(200);
  });
});
