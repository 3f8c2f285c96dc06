/**
 * `tessera ts:generate-types`: the files are Strapi v4's, interface for
 * interface (compared with what Strapi 4.26.2 itself wrote for the reference
 * model, test/fixtures/strapi-4.26.2-types), and with them a TypeScript app
 * written for Strapi type-checks against Tessera — while a misspelt uid,
 * filter, field or data key fails the compile.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, startApp } from '@tessera/testing';
import { generateStrapiTypes, interfaceName } from '../src/typegen/strapi-types';
import { runCli, tempDir } from './helpers';

const RECORDED = path.join(__dirname, 'fixtures/strapi-4.26.2-types');
const PEER_APP = path.resolve(REPO_ROOT, '../shared/strapi4-peer/app');
/** Strapi's own admin and content-releases types: Tessera has no admin panel (README, "The strapi object"). */
const STRAPI_ONLY = /^(admin::(permission|role|user|transfer-token|transfer-token-permission)|plugin::content-releases\.)/;

/** Attributes of Strapi's types that Tessera's copies leave out: polymorphic back-links, admin-panel ones. */
const NOT_IN_TESSERA = ['plugin::upload.file.related', 'admin::api-token-permission.token'];

/** Tessera's own additions to built-in types (README, "Users, roles and JWT": tokens issued before it are refused). */
const TESSERA_ONLY = ['plugin::users-permissions.user.passwordChangedAt'];

/** The attribute names of one generated interface. */
function attributeNames(block: string): Set<string> {
  const attributes = block.slice(block.indexOf('  attributes: {'));
  return new Set([...attributes.matchAll(/^ {4}(\w+): /gm)].map((match) => match[1]!));
}

/** `export interface X … }` blocks of a generated file, by interface name. */
function interfaces(text: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const match of text.matchAll(/^export interface (\w+)[\s\S]*?^\}$/gm)) result.set(match[1]!, match[0]);
  return result;
}

/**
 * One `tsc --noEmit` over the app with each sample as a module of its own (`src/sample-<n>.ts`): for each sample, the
 * compiler's messages about it, '' when it type-checks. Messages about no sample (or a compiler that failed without
 * any) are given to every sample, so a sample that should compile fails on them too. One compile for all samples
 * instead of one each: each costs seconds of CPU, and a sample's errors stay in its own file.
 */
function typeCheckSamples(dir: string, samples: readonly string[]): string[] {
  samples.forEach((code, index) => fs.writeFileSync(path.join(dir, `src/sample-${index}.ts`), code));
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: dir, encoding: 'utf8' });
  // One message per line, `src/sample-3.ts(12,5): error TS2353: …`; its continuation lines are indented.
  const messages: string[] = [];
  for (const line of `${tsc.stdout}${tsc.stderr}`.split('\n')) {
    if (/^\s/.test(line) && messages.length > 0) messages[messages.length - 1] += `\n${line}`;
    else if (line.trim()) messages.push(line);
  }
  const ofSample = (index: number) => messages.filter((message) => message.startsWith(`src/sample-${index}.ts(`));
  const elsewhere = messages.filter((message) => !/^src\/sample-\d+\.ts\(/.test(message));
  if (tsc.status !== 0 && messages.length === 0) elsewhere.push(`tsc exited ${tsc.status}`);
  return samples.map((_, index) => [...ofSample(index), ...elsewhere].join('\n'));
}

/**
 * The tests of one app's typed code: `base` type-checks, and each mistake (`[what, from, to, message]`: `from`
 * replaced by `to` in `base`) fails the compile with `message`. All of them from one compile.
 */
function compileCases(dirOf: () => string, title: string, base: string, mistakes: ReadonlyArray<readonly [string, string, string, string]>): void {
  let checked: string[] = [];
  before(() => {
    checked = typeCheckSamples(dirOf(), [base, ...mistakes.map(([, from, to]) => base.replace(from, to))]);
  });

  it(title, function () {
    expect(checked[0]).to.equal('');
  });

  mistakes.forEach(([what, from, , message], index) => {
    it(`fails the compile on ${what}`, function () {
      expect(base.includes(from), from).to.equal(true);
      expect(checked[index + 1]).to.contain(message);
    });
  });
}

/** Every schema.json of the peer's app (content types and components), as files for a test app. */
function peerSchemas(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json') && (full.includes('/content-types/') || full.includes('/components/'))) {
        files[path.relative(PEER_APP, full)] = fs.readFileSync(full, 'utf8');
      }
    }
  };
  walk(path.join(PEER_APP, 'src'));
  return files;
}

describe('tessera ts:generate-types', () => {
  it("writes Strapi 4.26.2's interfaces for the reference model, byte for byte", async function () {
    const app = await startApp({
      dialect: 'sqlite',
      noListen: true,
      files: { ...peerSchemas(), 'config/plugins.js': "module.exports = { i18n: { enabled: true }, upload: { enabled: true }, 'users-permissions': { enabled: true } };" },
    });
    let generated: ReturnType<typeof generateStrapiTypes>;
    try {
      generated = generateStrapiTypes(app.app.contentTypes.values(), app.app.components.values());
    } finally {
      await app.stop();
    }
    expect(generated.components).to.equal(fs.readFileSync(path.join(RECORDED, 'components.d.ts.txt'), 'utf8'));

    const strapi = fs.readFileSync(path.join(RECORDED, 'contentTypes.d.ts.txt'), 'utf8');
    const theirs = interfaces(strapi);
    const ours = interfaces(generated.contentTypes);
    const uids = [...strapi.matchAll(/^ {6}'([^']+)': (\w+);$/gm)].map((match) => [match[1]!, match[2]!] as const);
    const identical: string[] = [];
    for (const [uid, name] of uids) {
      if (STRAPI_ONLY.test(uid)) continue;
      expect(ours.has(name), `missing ${uid}`).to.equal(true);
      if (uid.startsWith('api::')) {
        // The app's own schema files: the generator's output is Strapi's, to the byte.
        expect(ours.get(name), uid).to.equal(theirs.get(name));
        identical.push(uid);
      } else {
        // Built-in types are Tessera's copies of Strapi's (API tokens, plugins): the same attributes, less the
        // ones Tessera does not have; their options may differ (README, "Generated types").
        const missing = [...attributeNames(theirs.get(name)!)].filter((attribute) => !attributeNames(ours.get(name)!).has(attribute));
        const extra = [...attributeNames(ours.get(name)!)].filter((attribute) => !attributeNames(theirs.get(name)!).has(attribute));
        expect(extra.filter((attribute) => !TESSERA_ONLY.includes(`${uid}.${attribute}`)), uid).to.deep.equal([]);
        expect(missing.every((attribute) => NOT_IN_TESSERA.includes(`${uid}.${attribute}`)), `${uid} lacks ${missing.join(', ')}`).to.equal(true);
      }
    }
    expect(identical).to.have.members(['api::article.article', 'api::category.category', 'api::homepage.homepage', 'api::note.note', 'api::page.page', 'api::tag.tag', 'api::writer.writer']);
  });

  it("names interfaces with Strapi's rule", () => {
    expect(interfaceName('api::article.article')).to.equal('ApiArticleArticle');
    expect(interfaceName('plugin::i18n.locale')).to.equal('PluginI18NLocale');
    expect(interfaceName('plugin::users-permissions.user')).to.equal('PluginUsersPermissionsUser');
    expect(interfaceName('shared.seo')).to.equal('SharedSeo');
    expect(interfaceName('api::writer-profile.writer-profile')).to.equal('ApiWriterProfileWriterProfile');
  });

  describe('a TypeScript app written for Strapi', () => {
    let dir: string;
    before(async function () {
      dir = tempDir('tessera-types-');
      for (const part of ['config', 'src']) fs.cpSync(path.join(REPO_ROOT, 'apps/example', part), path.join(dir, part), { recursive: true });
      fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
      fs.copyFileSync(path.join(REPO_ROOT, 'packages/cli/templates/app/tsconfig.json'), path.join(dir, 'tsconfig.json'));
      const result = await runCli(['ts:generate-types'], { cwd: dir, env: { TESSERA_LOG_LEVEL: 'silent', SEED: 'false' } });
      expect(result.code, result.stderr).to.equal(0);
      expect(fs.existsSync(path.join(dir, 'types/generated/contentTypes.d.ts'))).to.equal(true);
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const CALLS = `
import type { Strapi, Attribute } from '@strapi/strapi';
import { factories } from '@strapi/strapi';

export const service = factories.createCoreService('api::article.article');

export async function featured(strapi: Strapi): Promise<string[]> {
  const articles = await strapi.entityService.findMany('api::article.article', {
    filters: { title: { $containsi: 'tessera' }, category: { name: { $eq: 'News' } }, $or: [{ views: { $gt: 10 } }, { featured: true }] },
    sort: ['publishedAt:desc', 'title'],
    fields: ['title', 'slug'],
    populate: ['category', 'tags'],
  });
  const category = await strapi.entityService.findOne('api::category.category', 1, { fields: ['name'] });
  const label: string | null | undefined = category?.name;
  await strapi.entityService.create('api::tag.tag', { data: { name: label ?? 'x' } });
  const count: number = await strapi.entityService.count('api::article.article', { filters: { status: 'approved' } });
  strapi.db.query('api::article.article');
  const entry: Attribute.GetValues<'api::article.article'> | undefined = articles[0];
  return [...articles.map((article) => article.title ?? ''), String(count), String(entry?.views)];
}
`;

    compileCases(() => dir, 'type-checks Strapi-style typed calls', CALLS, [
      ['a misspelt filter', "filters: { title: { $containsi: 'tessera' }", "filters: { titel: { $containsi: 'tessera' }", "'titel' does not exist"],
      ['a misspelt uid', "findOne('api::category.category'", "findOne('api::categroy.category'", 'api::categroy.category'],
      ['a misspelt field', "fields: ['title', 'slug']", "fields: ['title', 'slgu']", 'slgu'],
      ['a misspelt data key', "{ data: { name: label ?? 'x' } }", "{ data: { nmae: label ?? 'x' } }", "'nmae' does not exist"],
      ['a wrong value type', "{ views: { $gt: 10 } }", "{ views: { $gt: 'ten' } }", 'string'],
    ]);
  });

  describe('an app made by `tessera new` (no components)', () => {
    let parent: string;
    let dir: string;
    before(async function () {
      parent = tempDir('tessera-types-new-');
      dir = path.join(parent, 'my-app');
      expect((await runCli(['new', dir])).code).to.equal(0);
      fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
      const result = await runCli(['ts:generate-types'], { cwd: dir, env: { ...process.env, TESSERA_LOG_LEVEL: 'silent', SEED: 'false' } });
      expect(result.code, result.stderr).to.equal(0);
    });
    after(() => fs.rmSync(parent, { recursive: true, force: true }));

    const POSTS = `
import type { Strapi } from '@strapi/strapi';

export async function titles(strapi: Strapi): Promise<string[]> {
  const posts = await strapi.entityService.findMany('api::post.post', { filters: { title: { $containsi: 'x' } } });
  await strapi.entityService.create('api::post.post', { data: { title: 'Hello' } });
  return posts.map((post) => post.title);
}
`;

    it('writes components.d.ts as a module, so it augments @strapi/types instead of replacing it', () => {
      const components = fs.readFileSync(path.join(dir, 'types/generated/components.d.ts'), 'utf8');
      expect(components).to.equal("export {};\n\ndeclare module '@strapi/types' {\n  export module Shared {\n  }\n}\n");
    });

    compileCases(() => dir, "type-checks the posts' typed calls (values come back typed: title is a string)", POSTS, [
      ['a misspelt filter', "filters: { title: { $containsi: 'x' } }", "filters: { titel: { $containsi: 'x' } }", "'titel' does not exist"],
      ['a wrong-typed filter value', "title: { $containsi: 'x' }", 'title: { $containsi: 42 }', "Type 'number' is not assignable to type 'string'"],
      ['a value read as the wrong type', 'posts.map((post) => post.title)', 'posts.map((post) => post.title * 2)', 'arithmetic operation'],
      ['a misspelt uid', "findMany('api::post.post'", "findMany('api::psot.post'", 'api::psot.post'],
    ]);
  });
});
