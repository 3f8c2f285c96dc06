/**
 * `fields`, `sort`, `publicationState` and `populate` → the read plan, row by
 * row, as Strapi v4 means each form (spec: "Query parameters"; samples 06,
 * 07, 16, 21; README "populate" and "Compatibility with Strapi v4"). Error
 * rows: the 400 ValidationError a client gets.
 */
import { expect } from 'chai';
import { compileQuery, type CompileOptions, type QueryParams } from '../../src/query/compile-params';
import { ARTICLE, blogMetadata, CATEGORY, HOMEPAGE, render, thrown, WRITER, type RenderedPlan } from './blog-model';

const metadata = blogMetadata();
const TAG = 'api::tag.tag';
const FILE = 'plugin::upload.file';

function plan(uid: string, params: QueryParams, options: CompileOptions = {}): RenderedPlan {
  return render(compileQuery(params, metadata.get(uid)!, metadata, options));
}

/** Every public attribute of each type, id first and timestamps last: what a response lists by default. */
const ALL_FIELDS: Record<string, string[]> = {
  [ARTICLE]: ['id', 'title', 'slug', 'body', 'featured', 'views', 'rating', 'publishDate', 'status', 'meta', 'createdAt', 'updatedAt', 'publishedAt'],
  [CATEGORY]: ['id', 'name', 'createdAt', 'updatedAt'],
  [TAG]: ['id', 'name', 'createdAt', 'updatedAt'],
  [WRITER]: ['id', 'name', 'email', 'createdAt', 'updatedAt'],
  [HOMEPAGE]: ['id', 'title', 'createdAt', 'updatedAt'],
  'shared.seo': ['id', 'metaTitle', 'metaDescription'],
  'shared.quote': ['id', 'text'],
  [FILE]: [
    'id', 'name', 'alternativeText', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size', 'url', 'previewUrl',
    'provider', 'provider_metadata', 'createdAt', 'updatedAt',
  ],
};

/** One level with the defaults (every public field, no filter, ordered by id), `changes` applied. */
function level(uid: string, changes: Partial<RenderedPlan> = {}): RenderedPlan {
  return { uid, fields: ALL_FIELDS[uid], where: null, sort: ['id:asc (tiebreak)'], publicationState: 'live', ...changes };
}

const relation = (query: RenderedPlan, extra: Record<string, unknown> = {}) => ({ kind: 'relation', ...extra, query });
const cover = { kind: 'media', multiple: false, query: level(FILE, { publicationState: 'preview' }) };
const seo = { kind: 'component', queries: { 'shared.seo': level('shared.seo') } };

type Row = [description: string, uid: string, params: QueryParams, expected: RenderedPlan, options?: CompileOptions];

const ROWS: Row[] = [
  ['no parameters: every public field, ordered by id, live', ARTICLE, {}, level(ARTICLE)],
  ['fields: one name; id always comes', ARTICLE, { fields: 'title' }, level(ARTICLE, { fields: ['id', 'title'] })],
  ['fields: qs indexes', ARTICLE, { fields: { 0: 'title', 1: 'views' } }, level(ARTICLE, { fields: ['id', 'title', 'views'] })],
  ['fields: a comma list', ARTICLE, { fields: 'title, views' }, level(ARTICLE, { fields: ['id', 'title', 'views'] })],
  ['fields: *', ARTICLE, { fields: '*' }, level(ARTICLE)],
  ['fields: a private one, trusted', WRITER, { fields: ['secret'] }, level(WRITER, { fields: ['id', 'secret'] }), { allowPrivate: true }],
  ['sort: one key, ascending by default', ARTICLE, { sort: 'title' }, level(ARTICLE, { sort: ['title:asc', 'id:asc (tiebreak)'] })],
  ['sort: a direction in any case', ARTICLE, { sort: 'views:DESC' }, level(ARTICLE, { sort: ['views:desc', 'id:asc (tiebreak)'] })],
  ['sort: qs indexes', ARTICLE, { sort: { 0: 'featured:desc', 1: 'title' } }, level(ARTICLE, { sort: ['featured:desc', 'title:asc', 'id:asc (tiebreak)'] })],
  ['sort: a comma list', ARTICLE, { sort: 'featured:desc,title:asc' }, level(ARTICLE, { sort: ['featured:desc', 'title:asc', 'id:asc (tiebreak)'] })],
  ['sort: the object form', ARTICLE, { sort: { views: 'desc' } }, level(ARTICLE, { sort: ['views:desc', 'id:asc (tiebreak)'] })],
  ['sort: through a to-one relation', ARTICLE, { sort: 'category.name:desc' }, level(ARTICLE, { sort: ['category.name:desc', 'id:asc (tiebreak)'] })],
  ['sort: nested objects', ARTICLE, { sort: { author: { name: 'asc' } } }, level(ARTICLE, { sort: ['author.name:asc', 'id:asc (tiebreak)'] })],
  ['sort: on id, no tie-break added', ARTICLE, { sort: 'id:desc' }, level(ARTICLE, { sort: ['id:desc'] })],
  ['publicationState=preview', ARTICLE, { publicationState: 'preview' }, level(ARTICLE, { publicationState: 'preview' })],
  ['the default state a trusted caller asks for', ARTICLE, {}, level(ARTICLE, { publicationState: 'preview' }), { defaultPublicationState: 'preview' }],
  ['populate: one relation', ARTICLE, { populate: 'category' }, level(ARTICLE, { populate: { category: relation(level(CATEGORY)) } })],
  ['populate: * is every link one level deep (sample 06)', ARTICLE, { populate: '*' }, level(ARTICLE, {
    populate: { category: relation(level(CATEGORY)), tags: relation(level(TAG)), author: relation(level(WRITER)), seo, cover },
  })],
  ['populate: true is *', CATEGORY, { populate: 'true' }, level(CATEGORY, { populate: { articles: relation(level(ARTICLE)) } })],
  ['populate: dotted path (sample 07)', ARTICLE, { populate: 'category.articles' }, level(ARTICLE, {
    populate: { category: relation(level(CATEGORY, { populate: { articles: relation(level(ARTICLE)) } })) },
  })],
  ['populate: paths sharing a head are their union', ARTICLE, { populate: 'category.articles.tags,category.articles.author' }, level(ARTICLE, {
    populate: { category: relation(level(CATEGORY, { populate: { articles: relation(level(ARTICLE, { populate: { tags: relation(level(TAG)), author: relation(level(WRITER)) } })) } })) },
  })],
  ['populate: the object form with its own parameters', ARTICLE, {
    populate: { tags: { fields: ['name'], sort: 'name:desc', filters: { name: { $startsWith: 'a' } } } },
  }, level(ARTICLE, {
    populate: { tags: relation(level(TAG, { fields: ['id', 'name'], sort: ['name:desc', 'id:asc (tiebreak)'], where: ['$startsWith', 'name', 'a'] })) },
  })],
  ['populate: a bracket form beside a plain one (qs ≥ 6.12)', ARTICLE, { populate: [{ tags: { fields: ['name'] } }, 'category'] }, level(ARTICLE, {
    populate: { tags: relation(level(TAG, { fields: ['id', 'name'] })), category: relation(level(CATEGORY)) },
  })],
  ['populate: count', CATEGORY, { populate: { articles: { count: 'true' } } }, level(CATEGORY, { populate: { articles: relation(level(ARTICLE), { countOnly: true }) } })],
  ['populate: a page of each parent\'s list', ARTICLE, { populate: { tags: { start: '5', limit: '10' } } }, level(ARTICLE, {
    populate: { tags: relation(level(TAG), { page: { offset: 5, limit: 10 } }) },
  })],
  ['populate: limit -1 is the whole list from start', ARTICLE, { populate: { tags: { start: 2, limit: -1 } } }, level(ARTICLE, {
    populate: { tags: relation(level(TAG), { page: { offset: 2 } }) },
  })],
  ['populate: a to-one relation takes no page', ARTICLE, { populate: { category: { limit: '1' } } }, level(ARTICLE, { populate: { category: relation(level(CATEGORY)) } })],
  ['populate: an unknown key is ignored (sample 16)', ARTICLE, { populate: 'nope', fields: ['title'] }, level(ARTICLE, { fields: ['id', 'title'] })],
  ['populate: false strings load nothing', ARTICLE, { populate: { category: 'false', tags: '0' } }, level(ARTICLE)],
  ['populate: any other string is true (Strapi\'s boolean cast)', ARTICLE, { populate: { category: 'name' } }, level(ARTICLE, { populate: { category: relation(level(CATEGORY)) } })],
  ['populate: a component and media', ARTICLE, { populate: ['seo', 'cover'] }, level(ARTICLE, { populate: { seo, cover } })],
  ['populate: the state applies at every level', ARTICLE, { populate: 'category', publicationState: 'preview' }, level(ARTICLE, {
    publicationState: 'preview',
    populate: { category: relation(level(CATEGORY, { publicationState: 'preview' })) },
  })],
  ['populate: a dynamic zone, shared populate for every component', HOMEPAGE, { populate: { blocks: { populate: 'by' } } }, level(HOMEPAGE, {
    populate: { blocks: { kind: 'dynamiczone', queries: { 'shared.seo': level('shared.seo'), 'shared.quote': level('shared.quote', { populate: { by: relation(level(WRITER)) } }) } } },
  })],
  // Only the components `on` names, as Strapi 4.26.2 answers (shared.seo is left out of the zone).
  ['populate: a dynamic zone with on', HOMEPAGE, { populate: { blocks: { on: { 'shared.quote': { fields: ['text'], populate: { by: { fields: ['name'] } } } } } } }, level(HOMEPAGE, {
    populate: { blocks: { kind: 'dynamiczone', queries: { 'shared.quote': level('shared.quote', { fields: ['id', 'text'], populate: { by: relation(level(WRITER, { fields: ['id', 'name'] })) } }) } } },
  })],
  ['populate: a type the caller may not read is left out (sample 84)', ARTICLE, { populate: ['category', 'tags'] }, level(ARTICLE, {
    populate: { tags: relation(level(TAG)) },
  }), { canRead: (uid) => uid !== CATEGORY }],
  ['populate: * leaves out media when the caller may not read files', ARTICLE, { populate: '*' }, level(ARTICLE, {
    populate: { category: relation(level(CATEGORY)), tags: relation(level(TAG)), author: relation(level(WRITER)), seo },
  }), { canRead: (uid) => uid !== FILE }],
];

type ErrorRow = [description: string, uid: string, params: QueryParams, message: string, options?: CompileOptions];

const ERRORS: ErrorRow[] = [
  ['fields: an unknown one', ARTICLE, { fields: ['nope'] }, 'Invalid parameter nope'],
  ['fields: a near miss is named', ARTICLE, { fields: ['titel'] }, 'Invalid parameter titel: did you mean title?'],
  ['fields: a private one', WRITER, { fields: ['secret'] }, 'Invalid parameter secret'],
  ['fields: a relation is no field', ARTICLE, { fields: ['category'] }, 'Invalid parameter category'],
  ['fields: not names', ARTICLE, { fields: { a: 1 } }, 'Invalid parameter fields'],
  ['sort: an unknown field (sample 21)', ARTICLE, { sort: 'nope:asc' }, 'Invalid parameter nope'],
  ['sort: a bad direction (a 500 in Strapi)', ARTICLE, { sort: 'title:up' }, 'Invalid parameter sort: direction must be asc or desc, got "up"'],
  ['sort: two colons', ARTICLE, { sort: 'title:asc:desc' }, 'Invalid parameter sort: bad sort "title:asc:desc"'],
  ['sort: through a to-many relation', ARTICLE, { sort: 'tags.name' }, 'Invalid parameter tags: cannot sort through a to-many relation'],
  ['sort: on json', ARTICLE, { sort: 'meta' }, 'Invalid parameter meta: cannot sort on a json attribute'],
  ['sort: on a private field', ARTICLE, { sort: 'author.secret' }, 'Invalid parameter secret'],
  ['sort: through a type the caller may not read', ARTICLE, { sort: 'category.name' }, 'Invalid parameter category', { canRead: (uid) => uid !== CATEGORY }],
  ['sort: 21 keys', ARTICLE, { sort: Array.from({ length: 21 }, () => 'title') }, 'Invalid parameter sort: at most 20 keys'],
  ['publicationState: neither live nor preview', ARTICLE, { publicationState: 'draft' }, 'Invalid parameter publicationState: use "live" or "preview"'],
  ['populate: strict mode names an unknown key', ARTICLE, { populate: 'categry' }, 'Invalid parameter categry: did you mean category?', { strictParams: true }],
  ['populate: strict mode refuses an unknown option', ARTICLE, { populate: { tags: { fieldz: ['name'] } } }, 'Invalid parameter fieldz: did you mean fields?', { strictParams: true }],
  ['populate: a private field inside', ARTICLE, { populate: { author: { fields: ['secret'] } } }, 'Invalid parameter secret'],
  ['populate: a bad start', ARTICLE, { populate: { tags: { start: '-1' } } }, 'Invalid parameter populate.tags.start: expected an integer ≥ 0'],
  ['populate: a limit that is no integer', ARTICLE, { populate: { tags: { limit: 'ten' } } }, 'Invalid parameter populate.tags.limit: expected an integer'],
  ['populate: a number is no form', ARTICLE, { populate: 3 }, 'Invalid parameter populate'],
  ['populate: 12 levels', ARTICLE, { populate: Array.from({ length: 12 }, (_, index) => (index % 2 === 0 ? 'category' : 'articles')).join('.') }, 'Invalid parameter populate: nested too deeply'],
];

describe('compiler: parameters → read plan (pure)', () => {
  for (const [description, uid, params, expected, options] of ROWS) {
    it(description, () => {
      expect(plan(uid, params, options ?? {})).to.deep.equal(expected);
    });
  }

  describe('bad input → 400 ValidationError', () => {
    for (const [description, uid, params, message, options] of ERRORS) {
      it(description, () => {
        expect(thrown(() => plan(uid, params, options ?? {}))).to.deep.equal({ name: 'ValidationError', status: 400, message, details: {} });
      });
    }
  });
});
