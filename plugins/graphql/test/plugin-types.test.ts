/**
 * Plugin-owned types in the example app's schema (upload and
 * users-permissions on): the plugins keep out of shadow CRUD what must go
 * through their own services. Files are read over GraphQL but created,
 * changed and removed only by the upload service; permissions are reached
 * only through roles, as in Strapi v4's schema.
 */
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { gql, gqlData } from './helpers';

eachDatabase('GraphQL: plugin types the plugins keep out of shadow CRUD', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
    token = await app.fullAccessToken();
  });
  after(() => app?.stop());

  it('has no create/update/delete for files and folders, and no permission queries or mutations', async () => {
    const data = await gqlData(app, '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }');
    const queries: string[] = data.__schema.queryType.fields.map((field: { name: string }) => field.name);
    const mutations: string[] = data.__schema.mutationType.fields.map((field: { name: string }) => field.name);
    expect(queries).to.include.members(['uploadFile', 'uploadFiles', 'uploadFolder', 'uploadFolders', 'usersPermissionsRole', 'usersPermissionsRoles']);
    expect(queries.filter((name) => /Permission(s)?$/.test(name))).to.deep.equal([]);
    expect(mutations.filter((name) => /Upload(File|Folder)$|UsersPermissionsPermission$/.test(name))).to.deep.equal([]);
  });

  it('refuses such a mutation even with a full-access token, and writes nothing', async () => {
    const before = await app.app.db.query('plugin::upload.file').count();
    const response = await gql(app, 'mutation { createUploadFile(data: { name: "x", url: "https://evil.example/x.html", hash: "x", ext: ".html", mime: "text/html", size: 1, provider: "local" }) { data { id } } }', { token });
    expect(response.status).to.equal(400);
    expect(response.body.errors![0].message).to.match(/Cannot query field "createUploadFile" on type "Mutation"/);
    expect(await app.app.db.query('plugin::upload.file').count()).to.equal(before);
  });

  it('still reads files', async () => {
    const file = await app.app.entityService.create('plugin::upload.file', {
      data: { name: 'one.png', hash: 'one_abc', ext: '.png', mime: 'image/png', size: 1.5, url: '/uploads/one_abc.png', provider: 'local', folderPath: '/' },
    });
    const data = await gqlData(app, `{ uploadFile(id: ${file.id}) { data { id attributes { name url mime } } } }`, { token });
    expect(data.uploadFile.data).to.deep.equal({ id: String(file.id), attributes: { name: 'one.png', url: '/uploads/one_abc.png', mime: 'image/png' } });
  });
});
