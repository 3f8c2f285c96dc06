/**
 * Content for the Next.js corporate starter's `backend/` and the requests its `frontend/` makes.
 *
 * The starter ships its content as `seed-data.tar.gz` (a Strapi export for `strapi import`), which the fixture
 * leaves out, so the same content is written through the content API on both servers: the real Strapi 4.26.2 (to
 * record its answers, `corporate-starter-strapi-4.26.2.json`) and Tessera (the test). The requests are the ones
 * `frontend/` sends through `fetchAPI` (`qs.stringify` of its parameter object, with `/api` in front) and
 * FormSubmit.tsx's POST, each with the token the starter's README has you create: a custom token for the content
 * (`NEXT_PUBLIC_STRAPI_API_TOKEN`) and one for the lead form (`NEXT_PUBLIC_STRAPI_FORM_SUBMISSION_TOKEN`).
 *
 * Pages are asked as the frontend asks (`filters[slug]`, `locale`): the backend's own route middleware
 * (src/api/page/middlewares/page-populate-middleware.js) replaces the query with its deep `populate`.
 *
 * strapi/nextjs-corporate-starter commit 364472521efe2663a0fd923415aefa99c6d3d740 (2024-10-01).
 */
import type { ClientRequest, SeedStep, TokenPermissions } from './content-client';

const FRONTEND = 'frontend/src/app/[lang]';
const link = (url: string, text: string) => ({ url, text, newTab: false });
const button = (url: string, text: string, type: 'primary' | 'secondary') => ({ url, text, newTab: false, type });

export const SEED: SeedStep[] = [
  { as: 'logo', upload: { name: 'logo.png', width: 32, height: 32, rgb: [20, 20, 160] } },
  { as: 'cover', upload: { name: 'cover.png', width: 60, height: 30, rgb: [160, 80, 20] } },
  { as: 'portrait', upload: { name: 'portrait.png', width: 30, height: 40, rgb: [90, 160, 90] } },
  { as: 'news', method: 'POST', path: '/api/categories', body: { data: { name: 'News', slug: 'news', description: 'All the news' } } },
  { as: 'tech', method: 'POST', path: '/api/categories', body: { data: { name: 'Tech', slug: 'tech', description: 'Tech things' } } },
  { as: 'ada', method: 'POST', path: '/api/authors', body: { data: { name: 'Ada', email: 'ada@example.com', avatar: '$portrait' } } },
  { as: 'fast', method: 'POST', path: '/api/product-features', body: { data: { name: 'Fast' } } },
  { as: 'secure', method: 'POST', path: '/api/product-features', body: { data: { name: 'Secure' } } },
  {
    as: 'hello',
    method: 'POST',
    path: '/api/articles',
    body: {
      data: {
        title: 'Hello',
        description: 'First post',
        slug: 'hello',
        cover: '$cover',
        category: '$news',
        authorsBio: '$ada',
        blocks: [
          { __component: 'shared.rich-text', body: '## Hello\n\nThe body.' },
          { __component: 'shared.quote', title: 'Q', body: 'A quote', author: 'Me' },
          { __component: 'shared.media', file: '$logo' },
          { __component: 'shared.slider', files: ['$cover', '$portrait'] },
          { __component: 'shared.video-embed', url: 'https://video.example/hello' },
        ],
        seo: { metaTitle: 'Hello', metaDescription: 'Hello, world', shareImage: '$cover' },
      },
    },
  },
  { as: 'second', method: 'POST', path: '/api/articles', body: { data: { title: 'Second', description: 'More', slug: 'second', category: '$tech', authorsBio: '$ada' } } },
  { as: 'third', method: 'POST', path: '/api/articles', body: { data: { title: 'Third', description: 'Still more', slug: 'third', category: '$news' } } },
  {
    as: 'home',
    method: 'POST',
    path: '/api/pages',
    body: {
      data: {
        shortName: 'Home',
        slug: 'home',
        heading: 'Welcome',
        description: 'The home page',
        contentSections: [
          { __component: 'sections.hero', title: 'Build it', description: 'With the starter', picture: '$cover', buttons: [button('/start', 'Start', 'primary'), button('/docs', 'Docs', 'secondary')] },
          { __component: 'sections.features', heading: 'Features', description: 'What it does', feature: [{ title: 'Speed', description: 'Quick', media: '$logo', showLink: true, newTab: false, url: '/speed', text: 'More' }] },
          { __component: 'sections.testimonials-group', title: 'They say', description: 'Quotes', testimonials: [{ picture: '$portrait', text: 'Great', authorName: 'Grace' }] },
          { __component: 'sections.pricing', title: 'Plans', plans: [{ name: 'Pro', description: 'For teams', isRecommended: true, price: 9.5, pricePeriod: 'month', product_features: ['$fast', '$secure'] }] },
          { __component: 'sections.lead-form', title: 'Stay in touch', emailPlaceholder: 'you@example.com', submitButton: { text: 'Send', type: 'primary' }, location: 'home', description: 'News by email' },
          { __component: 'sections.bottom-actions', title: 'Ready?', description: 'Go', buttons: [button('/go', 'Go', 'primary')] },
          { __component: 'sections.heading', heading: 'The end', description: 'Bye' },
          { __component: 'sections.rich-text', content: '**Bold** words' },
        ],
        seo: { metaTitle: 'Home', metaDescription: 'Home page', shareImage: '$logo' },
      },
    },
  },
  { as: 'about', method: 'POST', path: '/api/pages', body: { data: { shortName: 'About', slug: 'about', heading: 'About us', contentSections: [{ __component: 'sections.heading', heading: 'Who we are' }] } } },
  {
    method: 'PUT',
    path: '/api/global',
    body: {
      data: {
        metadata: { metaTitle: 'Site', metaDescription: 'The site' },
        favicon: '$logo',
        notificationBanner: { type: 'info', heading: 'Note', text: 'Something new', show: true, link: link('/news', 'More') },
        navbar: { links: [link('/', 'Home'), link('/blog', 'Blog')], button: button('/contact', 'Contact', 'primary'), navbarLogo: { logoImg: '$logo', logoText: 'Logo' } },
        footer: {
          footerLogo: { logoImg: '$cover', logoText: 'Footer' },
          menuLinks: [link('/a', 'A')],
          legalLinks: [link('/legal', 'Legal')],
          socialLinks: [{ ...link('https://social.example', 'Social'), social: 'TWITTER' }],
          categories: ['$news', '$tech'],
        },
      },
    },
  },
];

/** The starter's database grants the public role nothing: its frontend reads with a token. */
export const PUBLIC_TYPES: string[] = [];

/** The two custom tokens of the starter's README ("Public API Token Content", "Public API Form Submit"). */
export const TOKENS: TokenPermissions = {
  content: [
    ...['article', 'author', 'category', 'page', 'product-feature'].flatMap((name) => [`api::${name}.${name}.find`, `api::${name}.${name}.findOne`]),
    'api::global.global.find',
  ],
  form: ['api::lead-form-submission.lead-form-submission.create'],
};

const ARTICLE_LIST = 'populate[cover][fields][0]=url&populate[category][populate]=*&populate[authorsBio][populate]=*';

/** As the frontend sends them; with the content token unless one says otherwise. */
const REQUESTS: ClientRequest[] = [
  {
    from: `${FRONTEND}/layout.tsx getGlobal('en')`,
    path: '/api/global?populate[0]=metadata.shareImage&populate[1]=favicon&populate[2]=notificationBanner.link&populate[3]=navbar.links&populate[4]=navbar.navbarLogo.logoImg&populate[5]=footer.footerLogo.logoImg&populate[6]=footer.menuLinks&populate[7]=footer.legalLinks&populate[8]=footer.socialLinks&populate[9]=footer.categories&locale=en',
  },
  { from: `${FRONTEND}/utils/get-page-by-slug.ts getPageBySlug('home', 'en')`, path: '/api/pages?filters[slug]=home&locale=en' },
  { from: `${FRONTEND}/utils/get-page-by-slug.ts getPageBySlug('about', 'en')`, path: '/api/pages?filters[slug]=about&locale=en' },
  { from: `${FRONTEND}/utils/get-page-by-slug.ts getPageBySlug('missing', 'en')`, path: '/api/pages?filters[slug]=missing&locale=en' },
  { from: `${FRONTEND}/blog/page.tsx fetchData(0, 2)`, path: `/api/articles?sort[createdAt]=desc&${ARTICLE_LIST}&pagination[start]=0&pagination[limit]=2` },
  { from: `${FRONTEND}/blog/page.tsx loadMorePosts: fetchData(2, 2)`, path: `/api/articles?sort[createdAt]=desc&${ARTICLE_LIST}&pagination[start]=2&pagination[limit]=2` },
  { from: `${FRONTEND}/blog/[category]/page.tsx fetchPostsByCategory('news')`, path: `/api/articles?sort[createdAt]=desc&filters[category][slug]=news&${ARTICLE_LIST}` },
  {
    from: `${FRONTEND}/blog/[category]/[slug]/page.tsx getPostBySlug('hello')`,
    path: '/api/articles?filters[slug]=hello&populate[cover][fields][0]=url&populate[authorsBio][populate]=*&populate[category][fields][0]=name&populate[blocks][populate][__component]=*&populate[blocks][populate][files]=*&populate[blocks][populate][file]=*&populate[blocks][populate][url]=*&populate[blocks][populate][body]=*&populate[blocks][populate][title]=*&populate[blocks][populate][author]=*',
  },
  { from: `${FRONTEND}/blog/[category]/[slug]/page.tsx getMetaData('hello')`, path: '/api/articles?filters[slug]=hello&populate[seo][populate]=*' },
  { from: `${FRONTEND}/blog/[category]/[slug]/page.tsx generateStaticParams`, path: '/api/articles?populate[0]=category' },
  { from: `${FRONTEND}/blog/[category]/[slug]/layout.tsx fetchSideMenuData`, path: '/api/categories?populate=*' },
  { from: `${FRONTEND}/blog/[category]/[slug]/layout.tsx fetchSideMenuData('News')`, path: '/api/articles?filters[category][name]=News' },
  { from: `${FRONTEND}/blog/[category]/[slug]/layout.tsx fetchSideMenuData(null)`, path: '/api/articles' },
  { from: `${FRONTEND}/components/FormSubmit.tsx`, path: '/api/lead-form-submissions', method: 'POST', body: { data: { email: 'reader@example.com' } }, token: 'form' },
  // What each token may not do: the form token reads nothing, the content token writes nothing.
  { from: 'the form token reading (not in the frontend)', path: '/api/articles', token: 'form' },
  { from: 'the content token writing (not in the frontend)', path: '/api/lead-form-submissions', method: 'POST', body: { data: { email: 'x@example.com' } } },
];

export const CLIENT_REQUESTS: ClientRequest[] = REQUESTS.map((request) => ({ token: 'content', ...request }));
