/**
 * Sample content for a first run: a small blog (categories, tags, writers
 * with profiles, 30 articles of which 5 are drafts, pages with components
 * and a dynamic zone, the homepage), written through the entity service like
 * any server code would, in one transaction: all of it or nothing.
 *
 * It runs only on an empty database (no entry in any api:: content type),
 * so it never touches content you made, and a restart does not repeat it.
 * SEED=false turns it off. The content is fixed, so the README's examples
 * (ids, titles, counts) describe what a fresh `npm run develop` serves.
 */
import type { App, Common } from '@tessera/core';

const CATEGORIES = ['News', 'Tutorials', 'Engineering', 'Product', 'Culture'];
const TAGS = ['javascript', 'typescript', 'databases', 'performance', 'security', 'api', 'design', 'devops'];

const WRITERS = [
  { name: 'Maya Chen', email: 'maya@example.com', bio: 'Writes about databases and the queries that hurt them.', website: 'https://maya.example.com' },
  { name: 'Tom Okafor', email: 'tom@example.com', bio: 'Frontend engineer; turns APIs into pages.', website: 'https://tom.example.com' },
  { name: 'Lena Fischer', email: 'lena@example.com', bio: 'Security reviews, threat models and the occasional rant.', website: 'https://lena.example.com' },
  { name: 'Ravi Patel', email: 'ravi@example.com', bio: 'Product manager who still reads the changelog.', website: 'https://ravi.example.com' },
];

/** [title, category (index into CATEGORIES, or null), tags (indexes into TAGS), author (index into WRITERS)] */
const ARTICLES: Array<[string, number | null, number[], number]> = [
  ['Welcome to the Tessera blog', 0, [5], 3],
  ['Your first content type in five minutes', 1, [5, 0], 1],
  ['Filtering through relations without duplicates', 2, [2, 5], 0],
  ['Why every list is ordered by id last', 2, [2, 3], 0],
  ['Release notes: draft and publish', 3, [5], 3],
  ['API tokens explained', 1, [4, 5], 2],
  ['Pagination: pages or offsets?', 1, [5, 3], 1],
  ['Designing content models that last', 4, [6], 3],
  ['Populate, one query per level', 2, [2, 3], 0],
  ['Securing a headless CMS', 2, [4, 7], 2],
  ['TypeScript config files, no build step', 1, [1, 0], 1],
  ['Components and dynamic zones in practice', 1, [6, 5], 1],
  ['Benchmarking on a two-core machine', 2, [3, 7], 0],
  ['Our editorial workflow', 4, [6], 3],
  ['Moving from Strapi v4 without a migration', 0, [2, 5], 3],
  ['Private fields stay private', 2, [4], 2],
  ['Case-insensitive search on every database', 2, [2, 0], 0],
  ['A week of on-call, in charts', 4, [7, 3], 2],
  ['Lifecycle hooks inside transactions', 2, [2, 1], 0],
  ['Building a blog frontend with fetch', 1, [0, 5], 1],
  ['Release notes: strict parameters', 3, [5], 3],
  ['Postgres or SQLite?', 2, [2, 7], 0],
  ['Accessibility checklist for content teams', 4, [6], 1],
  ['Rate limits and caching in front of an API', 2, [3, 5, 7], 2],
  ['Writing good error messages', 4, [6, 5], 3],
  ['Roadmap: GraphQL and i18n', null, [5], 3],
  ['Threat modelling an API token', 2, [4], 2],
  ['Custom controllers without forking', 1, [1, 5], 1],
  ['Seeding data for demos and tests', 1, [2, 0], 0],
  ['What we learned shipping 1.0', 0, [3, 6], 3],
];

/** Articles left as drafts (1-based positions in ARTICLES): not visible under publicationState=live. */
const DRAFTS = new Set([5, 12, 18, 24, 30]);

interface Counts {
  [kind: string]: number;
}

export async function seedExampleContent(app: App): Promise<void> {
  if (!app.env.bool('SEED', true)) return;
  // Several processes may boot on one empty Postgres at once: the lock makes the emptiness check and the seed one step.
  const counts = await app.db.transaction(async () => {
    await app.db.lock(['tessera:example-seed']);
    return (await isEmpty(app)) ? createBlog(app) : undefined;
  });
  if (!counts) return;
  const drafts = DRAFTS.size;
  app.log.info(
    `seed: the database was empty, so it now holds sample content: ${counts.categories} categories, ${counts.tags} tags, ` +
      `${counts.writers} writers, ${counts.articles} articles (${drafts} drafts), ${counts.pages} pages and the homepage (SEED=false turns this off)`,
  );
}

/** No entry in any of the app's content types. */
async function isEmpty(app: App): Promise<boolean> {
  for (const uid of app.contentTypes.keys()) {
    if (!uid.startsWith('api::')) continue;
    if ((await app.db.query(uid).count()) > 0) return false;
  }
  return true;
}

async function createBlog(app: App): Promise<Counts> {
  // Server code's creates are drafts unless they say `publishedAt`, as with Strapi's entity service.
  const now = new Date().toISOString();
  const create = async (uid: Common.UID.ContentType, data: Record<string, unknown>): Promise<number> => (await app.entityService.create(uid, { data })).id;

  const categories: number[] = [];
  for (const name of CATEGORIES) categories.push(await create('api::category.category', { name }));
  const tags: number[] = [];
  for (const name of TAGS) tags.push(await create('api::tag.tag', { name }));
  const writers: number[] = [];
  for (const { name, email, bio, website } of WRITERS) {
    const writer = await create('api::writer.writer', { name, email });
    await create('api::writer-profile.writer-profile', { bio, website, writer });
    writers.push(writer);
  }

  const articles: number[] = [];
  for (const [index, [title, category, tagIndexes, author]] of ARTICLES.entries()) {
    const position = index + 1;
    articles.push(
      await create('api::article.article', {
        title,
        slug: slugify(title),
        summary: category === null ? `${title}: a short read.` : `${title}: a short read from the ${CATEGORIES[category]!.toLowerCase()} desk.`,
        body: `## ${title}\n\nThis is sample content created on the first run of the example app.\n\n- point one\n- point two\n`,
        featured: position % 7 === 1,
        views: (position * 37) % 101,
        rating: Number((3 + (position % 5) * 0.45).toFixed(2)),
        publishDate: isoDay(2024, position),
        status: ['approved', 'draft_review', 'archived'][position % 3],
        meta: { readingMinutes: 3 + (position % 6), ...(title.startsWith('Release notes') ? { series: 'release notes' } : {}) },
        category: category === null ? null : categories[category],
        tags: tagIndexes.map((tag) => tags[tag]),
        author: writers[author],
        seo: position % 2 === 1 ? { metaTitle: title, metaDescription: `Read "${title}" on the Tessera blog.` } : undefined,
        publishedAt: DRAFTS.has(position) ? null : `${isoDay(2024, position)}T09:00:00.000Z`,
      }),
    );
  }

  const about = await create('api::page.page', {
    title: 'About',
    slug: 'about',
    notes: 'Private editorial note: never served.',
    seo: { metaTitle: 'About the Tessera blog', metaDescription: 'Who writes here and why.' },
    links: [
      { label: 'Source code', url: 'https://example.com/tessera', newTab: true },
      { label: 'Contact', url: '/contact' },
    ],
    content: [
      { __component: 'shared.rich-text', body: 'We write about **content APIs**: modelling, querying and running them.' },
      { __component: 'shared.quote', text: 'Make the common case fast and the rare case correct.', author: 'Maya Chen' },
      { __component: 'shared.feature', title: 'Start here', link: { label: 'Read the welcome post', url: '/blog/welcome' }, article: articles[0] },
    ],
    author: writers[3],
    reviewer: writers[2],
    relatedArticles: [articles[0], articles[1]],
    publishedAt: now,
  });
  await create('api::page.page', { title: 'Contact', slug: 'contact', parent: about, author: writers[3], content: [{ __component: 'shared.rich-text', body: 'Write to hello@example.com.' }], publishedAt: now });
  await create('api::page.page', { title: 'Privacy', slug: 'privacy', parent: about, publishedAt: null });

  await create('api::homepage.homepage', {
    title: 'The Tessera blog',
    hero: 'Notes on building and running a **fast content API**.',
    featuredArticles: [articles[0], articles[2], articles[14]],
  });
  return { categories: categories.length, tags: tags.length, writers: writers.length, articles: articles.length, pages: 3 };
}

function slugify(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** The n-th day of a year, as YYYY-MM-DD, spaced a week apart. */
function isoDay(year: number, n: number): string {
  return new Date(Date.UTC(year, 0, 1 + (n - 1) * 7)).toISOString().slice(0, 10);
}
