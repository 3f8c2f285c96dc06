/**
 * Shared by the GraphQL suites: a POST helper, seeding through the REST API
 * (the other transport: what it wrote, GraphQL must read), and the example
 * app seeded with a small blog.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { EXAMPLE_APP, startApp, type RequestOptions, type TestApp, type TestAppOptions, type TestDialect } from '@tessera/testing';

export interface GraphqlBody {
  data?: any;
  errors?: Array<{ message: string; extensions?: { code?: string; error?: { name: string; message: string; details: unknown } }; path?: unknown; locations?: unknown }>;
}

export async function gql(app: TestApp, query: string, options: { variables?: Record<string, unknown>; token?: string; headers?: Record<string, string> } = {}) {
  const request: RequestOptions = { token: options.token, headers: options.headers };
  const response = await app.post('/graphql', { query, variables: options.variables }, request);
  return response as { status: number; body: GraphqlBody; text: string; headers: Headers };
}

/** The data of a query that must succeed. */
export async function gqlData(app: TestApp, query: string, options: { variables?: Record<string, unknown>; token?: string } = {}): Promise<any> {
  const response = await gql(app, query, options);
  expect(response.status, response.text.slice(0, 500)).to.equal(200);
  expect(response.body.errors, response.text.slice(0, 500)).to.equal(undefined);
  return response.body.data;
}

export async function create(app: TestApp, token: string, plural: string, data: Record<string, unknown>): Promise<number> {
  const response = await app.post(`/api/${plural}`, { data }, { token });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body.data.id as number;
}

export interface Blog {
  app: TestApp;
  token: string;
  categories: number[];
  tags: number[];
  writers: number[];
  articles: number[];
}

/**
 * 3 categories, 4 tags, 2 writers, 12 articles (every third a draft), each
 * with a category, two tags, an author and an SEO component; a homepage.
 */
export async function startBlog(dialect: TestDialect, options: Partial<TestAppOptions> = {}): Promise<Blog> {
  const app = await startApp({ dialect, from: EXAMPLE_APP, ...options });
  const token = await app.fullAccessToken();
  const categories = [];
  for (const name of ['Alpha', 'Beta', 'Gamma']) categories.push(await create(app, token, 'categories', { name }));
  const tags = [];
  for (const name of ['t1', 't2', 't3', 't4']) tags.push(await create(app, token, 'tags', { name }));
  const writers = [];
  for (const name of ['Ann', 'Bob']) writers.push(await create(app, token, 'writers', { name, email: `${name.toLowerCase()}@example.com` }));
  const articles = [];
  for (let n = 1; n <= 12; n++) {
    articles.push(
      await create(app, token, 'articles', {
        title: `Article ${n}`,
        slug: `article-${n}`,
        views: n * 10,
        featured: n % 2 === 0,
        rating: n / 10,
        publishDate: `2024-01-${String(n).padStart(2, '0')}`,
        status: ['draft_review', 'approved', 'archived'][n % 3],
        meta: { n },
        category: categories[n % 3],
        tags: [tags[n % 4], tags[(n + 1) % 4]],
        author: writers[n % 2],
        seo: { metaTitle: `SEO ${n}`, metaDescription: `About ${n}` },
        publishedAt: n % 3 === 0 ? null : `2024-02-${String(n).padStart(2, '0')}T00:00:00.000Z`,
      }),
    );
  }
  const home = await app.put('/api/homepage', { data: { title: 'Home', hero: 'Hi', featuredArticles: articles.slice(0, 3) } }, { token });
  expect(home.status).to.equal(200);
  return { app, token, categories, tags, writers, articles };
}

export function ids(list: Array<{ id: string | number }>): number[] {
  return list.map((item) => Number(item.id));
}

/** The example app's config and src as files, without its src/index.ts (a test brings its own src/index.js). */
export function exampleFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(EXAMPLE_APP, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (child !== path.join('src', 'index.ts')) files[child] = fs.readFileSync(path.join(EXAMPLE_APP, child), 'utf8');
    }
  };
  walk('config');
  walk('src');
  return files;
}
