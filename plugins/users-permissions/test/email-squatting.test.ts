/**
 * Issue 36, finding 8: registration could be blocked by another user's
 * username. Strapi 4.26.2's register refuses an email that is someone's
 * username, so whoever registered the username `carol@example.com` first kept
 * Carol from signing up with her own address. Now a username shaped like an
 * email address must be its account's own email (username-rule.ts), at
 * register and at a username update, and register no longer looks at other
 * users' usernames for the email. Strapi's answers for the ordinary conflicts
 * (a taken email, a taken username, a username that is someone's email) stay.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { errorBody, startUpApp } from './fixture';

const USER_UID = 'plugin::users-permissions.user';
const MESSAGE = 'username must not be an email address other than the email of the account';
const EMAIL_SHAPED = errorBody(400, 'ValidationError', MESSAGE, { errors: [{ path: ['username'], message: MESSAGE, name: 'ValidationError' }] });
const TAKEN = errorBody(400, 'ApplicationError', 'Email or Username are already taken');
const PASSWORD = 'Passw0rd!';

eachDatabase('users-permissions: no username can squat an email address (issue 36, finding 8)', (dialect) => {
  let app: TestApp;
  const users = () => app.app.db.query(USER_UID);
  const registerAs = (username: string, email: string) => app.post('/api/auth/local/register', { username, email, password: PASSWORD });
  before(async () => {
    app = await startUpApp(dialect);
  });
  after(() => app?.stop());

  it("refuses a username that is another address than the registrant's email, so the address's owner can still sign up", async () => {
    expect((await registerAs('carol@example.com', 'mallory@example.com')).body).to.deep.equal(EMAIL_SHAPED);
    expect(await users().count({ where: { email: 'mallory@example.com' } })).to.equal(0);
    const carol = await registerAs('carol', 'carol@example.com');
    expect(carol.status).to.equal(200);
    const login = await app.post('/api/auth/local', { identifier: 'carol@example.com', password: PASSWORD });
    expect(login.body.user.id).to.equal(carol.body.user.id);
  });

  it('an account holding such a username from before does not block the address either', async () => {
    const squatter = await registerAs('squatter', 'squatter@example.com');
    await users().update({ where: { id: squatter.body.user.id }, data: { username: 'dave@example.com' } });
    const dave = await registerAs('dave', 'dave@example.com');
    expect(dave.status).to.equal(200);
    expect((await app.post('/api/auth/local', { identifier: 'dave@example.com', password: PASSWORD })).body.user.id).to.equal(dave.body.user.id);
  });

  it("takes a username equal to the registrant's own email, in any case, and usernames with an @ that are no address", async () => {
    const erin = await registerAs('Erin@Example.com', 'erin@example.com');
    expect(erin.status).to.equal(200);
    expect(erin.body.user).to.include({ username: 'Erin@Example.com', email: 'erin@example.com' });
    expect((await registerAs('frank@home', 'frank@example.com')).status).to.equal(200);
  });

  it("keeps Strapi 4.26.2's answer for a taken email, a taken username and a username that is someone's email", async () => {
    await registerAs('gina', 'gina@example.com');
    expect((await registerAs('gina2', 'GINA@example.com')).body).to.deep.equal(TAKEN);
    expect((await registerAs('gina', 'other-gina@example.com')).body).to.deep.equal(TAKEN);
    expect((await registerAs('gina@example.com', 'third-gina@example.com')).body).to.deep.equal(TAKEN);
  });

  it("PUT /api/users/:id refuses a username that is another address than the user's email, and takes the user's own", async () => {
    const token = await app.fullAccessToken();
    const henry = await registerAs('henry', 'henry@example.com');
    const id = henry.body.user.id as number;
    expect((await app.put(`/api/users/${id}`, { username: 'ivy@example.com' }, { token })).body).to.deep.equal(EMAIL_SHAPED);
    expect((await app.put(`/api/users/${id}`, { username: 'ivy@example.com', email: 'henry2@example.com' }, { token })).body).to.deep.equal(EMAIL_SHAPED);
    expect((await users().findOne({ where: { id } }))?.username).to.equal('henry');
    const own = await app.put(`/api/users/${id}`, { username: 'henry@example.com' }, { token });
    expect(own.status).to.equal(200);
    expect(own.body.username).to.equal('henry@example.com');
    const both = await app.put(`/api/users/${id}`, { username: 'henry3@example.com', email: 'henry3@example.com' }, { token });
    expect(both.status).to.equal(200);
    expect(both.body).to.include({ username: 'henry3@example.com', email: 'henry3@example.com' });
  });
});
