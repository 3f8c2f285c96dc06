/**
 * The one authorization decision (`Caller.refusal`) and the one name rule
 * (`qualifiedName`), table-driven: every REST route, GraphQL resolver and
 * `strapi.auth.verify` call goes through these two functions, so their
 * tables are the rules; the end-to-end answers of both transports are in
 * plugins/users-permissions/test/authorization.test.ts.
 */
import { expect } from 'chai';
import { ActionSet, Caller, qualifiedName, type AuthRequirement, type Refusal } from '@tessera/core';

const caller = (name: string, actions: string[]): Caller => Caller.of({ strategy: { name }, credentials: name === 'public' ? null : { id: 1 }, ability: new ActionSet(actions) });
const FIND = 'api::article.article.find';

const ANONYMOUS = caller('public', [FIND]);
const NO_CALLER = caller('public', []);
const USER = caller('users-permissions', ['plugin::users-permissions.user.me']);
const READER = caller('api-token', [FIND]);

describe('Caller.refusal: may this caller do what a config asks?', () => {
  const table: Array<[string, Caller, AuthRequirement, string | undefined, Refusal | undefined]> = [
    ['auth: false lets anyone in, even no caller', NO_CALLER, false, FIND, undefined],
    ['the own action, granted to the public', ANONYMOUS, undefined, FIND, undefined],
    ['the own action, not granted', ANONYMOUS, undefined, 'api::article.article.create', 'forbidden'],
    ['a credential lacking the own action', USER, undefined, FIND, 'forbidden'],
    ['a credential holding it', READER, undefined, FIND, undefined],
    ['a scope replaces the own action', READER, { scope: ['api::tag.tag.find'] }, FIND, 'forbidden'],
    // Strapi's strategies check `every` (recorded: plugins/users-permissions/test/strapi-route-auth.json, scope-two).
    ['every action of the scope is needed, not one of them', READER, { scope: ['api::tag.tag.find', FIND] }, undefined, 'forbidden'],
    ['a scope whose every action is held', READER, { scope: [FIND, FIND] }, undefined, undefined],
    ['no scope and no own action: any credential', USER, undefined, undefined, undefined],
    ['no scope and no own action: never the anonymous caller', ANONYMOUS, {}, undefined, 'credential-required'],
    ['an empty public role is no caller, whatever is asked', NO_CALLER, undefined, FIND, 'unauthenticated'],
    ['an empty public role is no caller on a scope-less config too', NO_CALLER, {}, undefined, 'unauthenticated'],
    ['server code passes any scope', Caller.server, { scope: ['api::tag.tag.delete'] }, undefined, undefined],
    ['server code passes a scope-less config', Caller.server, {}, undefined, undefined],
  ];
  for (const [what, caller, requirement, ownAction, expected] of table) {
    it(what, () => expect(caller.refusal(requirement, ownAction)).to.equal(expected));
  }
});

describe('qualifiedName: which registered policy or middleware a name in a config means', () => {
  const table: Array<[string, string, string | undefined, string | undefined]> = [
    ['a qualified name is itself, on a route', 'global::is-owner', 'api::article', 'global::is-owner'],
    ['a qualified name is itself, in resolversConfig', 'plugin::p.check', undefined, 'plugin::p.check'],
    ['a bare name on an API router is that API\'s', 'is-owner', 'api::article', 'api::article.is-owner'],
    ['a bare name on a plugin router is that plugin\'s', 'is-owner', 'plugin::users-permissions', 'plugin::users-permissions.is-owner'],
    ['a bare name with no owner (resolversConfig) names nothing', 'is-owner', undefined, undefined],
    ['a bare name on a router of another namespace names nothing', 'is-owner', 'global::extra', undefined],
  ];
  for (const [what, name, owner, expected] of table) {
    it(what, () => expect(qualifiedName(name, owner)).to.equal(expected));
  }
});
