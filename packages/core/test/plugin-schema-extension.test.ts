/**
 * `src/extensions/<plugin>/content-types/<name>/schema.json` replaces the
 * plugin content type's schema, as in Strapi v4: the way apps add fields and
 * relations to the users-permissions user (FoodAdvisor adds `job`, `picture`
 * and `reviews`). Checked on the users-permissions user, through REST.
 */
import { expect } from 'chai';
import { bootError, eachDatabase, startApp, type TestApp } from '@tessera/testing';

const REVIEW = {
  kind: 'collectionType',
  collectionName: 'reviews',
  info: { singularName: 'review', pluralName: 'reviews', displayName: 'Review' },
  options: { draftAndPublish: false },
  attributes: {
    note: { type: 'integer' },
    author: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user', inversedBy: 'reviews' },
  },
};

/** The plugin's user schema (Strapi v4's), plus `job` and the other side of `review.author`. */
const EXTENDED_USER = {
  kind: 'collectionType',
  collectionName: 'up_users',
  info: { name: 'user', singularName: 'user', pluralName: 'users', displayName: 'User', description: '' },
  options: { draftAndPublish: false, timestamps: true },
  attributes: {
    username: { type: 'string', minLength: 3, unique: true, configurable: false, required: true },
    email: { type: 'email', minLength: 6, configurable: false, required: true },
    provider: { type: 'string', configurable: false },
    password: { type: 'password', minLength: 6, configurable: false, private: true, searchable: false },
    resetPasswordToken: { type: 'string', configurable: false, private: true, searchable: false },
    confirmationToken: { type: 'string', configurable: false, private: true, searchable: false },
    confirmed: { type: 'boolean', default: false, configurable: false },
    blocked: { type: 'boolean', default: false, configurable: false },
    role: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.role', inversedBy: 'users', configurable: false },
    job: { type: 'string' },
    reviews: { type: 'relation', relation: 'oneToMany', target: 'api::review.review', mappedBy: 'author' },
  },
};

const PLUGINS = { 'users-permissions': { enabled: true, config: { jwtSecret: 'extension-test-secret' } } };

eachDatabase('plugin content types extended by src/extensions/<plugin>/content-types', (dialect) => {
  let app: TestApp;

  before(async () => {
    app = await startApp({
      dialect,
      files: {
        'src/api/review/content-types/review/schema.json': REVIEW,
        'src/extensions/users-permissions/content-types/user/schema.json': EXTENDED_USER,
      },
      config: { plugins: PLUGINS },
    });
  });
  after(() => app.stop());

  it('stores, returns and relates the fields the extension adds', async () => {
    const token = await app.fullAccessToken();
    const user = await app.post('/api/users', { username: 'ada', email: 'ada@example.com', password: 'secret-pw', job: 'Chef', role: 1 }, { token });
    expect(user.status, user.text).to.equal(201);
    expect(user.body.job).to.equal('Chef');
    const review = await app.post('/api/reviews', { data: { note: 5, author: user.body.id } }, { token });
    expect(review.status, review.text).to.equal(200);
    const read = await app.get(`/api/users/${user.body.id}?populate=reviews`, { token });
    expect(read.status, read.text).to.equal(200);
    expect(read.body.job).to.equal('Chef');
    expect(read.body.reviews.map((item: { note: number }) => item.note)).to.deep.equal([5]);
    expect(read.body).to.not.have.property('password');
  });

  it('stops the boot when the plugin has no such content type', async () => {
    const error = await bootError({
      dialect,
      files: { 'src/extensions/users-permissions/content-types/member/schema.json': EXTENDED_USER },
      config: { plugins: PLUGINS },
    });
    expect(error.message).to.match(/plugin users-permissions has no content type "member" to extend/);
  });
});
