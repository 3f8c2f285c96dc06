/**
 * The content the list and relation journeys (lists-relations-browser.test.ts) run on: the example app with a
 * Category that has draft & publish and a second text field (`code`), so a relation can target a draft and the
 * relation's main field can be changed to another field; 27 articles with known titles, categories, tags, flags and
 * views, so every filter, page and sort the panel asks for has an answer computed here, independently of the server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EXAMPLE_APP, type TestApp } from '@tessera/testing';

export const ARTICLE = 'api::article.article';

/** The example app's Category schema with draft & publish on and a `code`: the test app's own copy of the file. */
export function categoryWithDrafts(): Record<string, object> {
  const file = 'src/api/category/content-types/category/schema.json';
  const schema = JSON.parse(fs.readFileSync(path.join(EXAMPLE_APP, file), 'utf8')) as { options: object; attributes: Record<string, object> };
  const { articles, ...scalars } = schema.attributes;
  return { [file]: { ...schema, options: { ...schema.options, draftAndPublish: true }, attributes: { ...scalars, code: { type: 'string' }, articles } } };
}

export interface SeededCategory {
  id: number;
  name: string;
  code: string;
  published: boolean;
}

export interface SeededArticle {
  id: number;
  title: string;
  category: string | null;
  tags: string[];
  featured: boolean;
  status: string | null;
  views: number;
  published: boolean;
}

export interface Seed {
  categories: SeededCategory[];
  tags: Map<string, number>;
  articles: SeededArticle[];
}

const CATEGORIES = [
  { name: 'Science', code: 'SCI', published: true },
  { name: 'Art', code: 'ART', published: true },
  { name: 'History', code: 'HIS', published: true },
  { name: 'Upcoming', code: 'UPC', published: false },
];
export const TAGS = ['space', 'physics', 'chemistry', 'biology', 'music', 'poetry'];
const WORDS = ['Comet', 'Moon', 'Star'];
const STATUSES = ['draft_review', 'approved', 'archived'];
export const ARTICLE_COUNT = 27;
/** A draft with no relations, made after the 27: the edit view's relation journey connects its tags and category. */
export const LAB = 'Relations lab';

/** Article n (1-based) of the seed: each property a different function of n, so filters cut across each other. */
function articleOf(n: number): Omit<SeededArticle, 'id'> {
  const categoryIndex = (n * 7) % 4;
  const tags = n % 5 === 0 ? [] : [TAGS[n % 6], TAGS[(n + 2) % 6], ...(n % 4 === 0 ? [TAGS[(n + 4) % 6]] : [])];
  return {
    title: `${WORDS[n % 3]} notes ${String(n).padStart(2, '0')}`,
    // Index 3 is the draft category: those articles have none, so the draft is only connected from the panel.
    category: categoryIndex === 3 ? null : CATEGORIES[categoryIndex].name,
    tags,
    featured: n % 4 === 0,
    status: STATUSES[Math.floor(n / 2) % 3],
    // 37 and 100 are coprime: every article has its own count of views, so a sort on it has one answer.
    views: (n * 37) % 100,
    published: n % 7 !== 0,
  };
}

/** Creates the categories, tags and articles through the app's entity service; what was made, with ids. */
export async function seedArticles(app: TestApp): Promise<Seed> {
  const es = app.app.entityService;
  const now = new Date().toISOString();
  const categories: SeededCategory[] = [];
  for (const category of CATEGORIES) {
    const created = (await es.create('api::category.category', { data: { name: category.name, code: category.code, publishedAt: category.published ? now : null } })) as { id: number };
    categories.push({ id: created.id, ...category });
  }
  const tags = new Map<string, number>();
  for (const name of TAGS) tags.set(name, ((await es.create('api::tag.tag', { data: { name } })) as { id: number }).id);
  const articles: SeededArticle[] = [];
  for (let n = 1; n <= ARTICLE_COUNT; n += 1) {
    const article = articleOf(n);
    const data = {
      title: article.title,
      slug: article.title.toLowerCase().replace(/ /g, '-'),
      featured: article.featured,
      status: article.status,
      views: article.views,
      category: categories.find((category) => category.name === article.category)?.id ?? null,
      tags: article.tags.map((name) => tags.get(name)),
      publishedAt: article.published ? now : null,
    };
    const created = (await es.create(ARTICLE, { data })) as { id: number };
    articles.push({ id: created.id, ...article });
  }
  const lab = (await es.create(ARTICLE, { data: { title: LAB, slug: 'relations-lab', views: 0, featured: false, publishedAt: null } })) as { id: number };
  articles.push({ id: lab.id, title: LAB, category: null, tags: [], featured: false, status: null, views: 0, published: false });
  return { categories, tags, articles };
}

/**
 * Titles of `articles` in the list's order for `sort` ("field:ASC|DESC" on title, views, or the category's name as
 * the panel asks for it, `category[name]`), one page of `pageSize`. As on SQLite, an article without a category comes
 * first in ascending order and last in descending; ties keep the seed's (id) order, Tessera's last sort key.
 */
export function pageOf(articles: SeededArticle[], sort: string, page: number, pageSize: number): string[] {
  const [field, direction] = sort.split(':');
  const sign = direction === 'DESC' ? -1 : 1;
  const key = (article: SeededArticle): string | number => (field === 'views' ? article.views : field === 'category[name]' ? article.category ?? '' : article.title);
  const sorted = [...articles].sort((a, b) => (key(a) < key(b) ? -sign : key(a) > key(b) ? sign : 0));
  return sorted.slice((page - 1) * pageSize, page * pageSize).map((article) => article.title);
}
