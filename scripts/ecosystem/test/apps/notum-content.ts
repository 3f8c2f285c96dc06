/**
 * Content for the Strapi + Next.js monorepo starter of notum-cz (`apps/strapi`, Strapi 4.24.5 in TypeScript) and the
 * requests its `apps/ui` sends through `lib/strapi.ts` (`qs.stringify` of its parameters, `/api` in front).
 *
 * What the backend brings: config files in TypeScript (`config/server.ts` imports `./cron-tasks`), a localized
 * page type whose `lifecycles.ts` refuses a slug taken in the same locale (through `src/utils`, with
 * `ApplicationError` from `@strapi/utils`), localized single types, a dynamic zone of components nested three deep,
 * a `plugin::color-picker.color` custom field, and plugins from npm: `strapi-plugin-populate-deep` (the frontend's
 * `populate=deep`), `@strapi/plugin-seo` and `strapi-plugin-config-sync` enabled in `config/plugins.ts`,
 * `@strapi/plugin-color-picker` and `@strapi/plugin-sentry` (no DSN: off).
 *
 * The app's content is a Strapi export, so the same content is written through the content API on both servers,
 * after an admin step adds the frontend's second locale (`cs`). The public role gets what the app's config-sync
 * snapshot (`config/sync/user-role.public.json`) gives it; an editor's token writes pages (not in the frontend).
 *
 * notum-cz/strapi-next-monorepo-starter commit ceebf975bc9b97467ba11f90388b9995a45d1a5d (2024-07-26), the last
 * on Strapi v4.
 */
import type { ClientRequest, SeedStep, TokenPermissions } from './content-client';

const UI = 'apps/ui/src';
const link = (href: string, label: string, newTab = false) => ({ href, label, newTab });
const image = (media: string, alt: string, width?: number, height?: number) => ({ media, alt, width, height, fallbackSrc: null });

const aboutContent = (lang: string) => [
  { __component: 'layout.navbar', links: [link('/about', `${lang} about`)], logoImage: { image: image('$logo', 'Logo'), link: link('/', 'Home') } },
  { __component: 'sections.hero', title: `${lang} hero`, subTitle: 'Sub', links: [link('/start', 'Start'), link('https://docs.example', 'Docs', true)], image: image('$hero', 'Hero', 640, 360), isVisible: true, bgColor: '#FF8800' },
  { __component: 'sections.faq', title: 'FAQ', subTitle: 'Questions', isVisible: true, accordions: [{ question: 'Why?', answer: 'Because.' }, { question: 'How?', answer: 'Like this.' }] },
  {
    __component: 'sections.feature-grid',
    title: 'Features',
    imageSize: 48,
    isVisible: true,
    imageRadius: 'md',
    gridCol: { desktop: 3, tablet: 2, mobile: 1 },
    items: [
      { title: 'Fast', subTitle: 'Very', image: image('$photo', 'Fast') },
      { title: 'Typed', subTitle: 'Strictly' },
    ],
  },
  { __component: 'sections.carousel', radius: 'lg', isVisible: true, images: [{ image: image('$photo', 'One'), link: link('/one', 'One') }, { image: image('$hero', 'Two') }] },
  { __component: 'sections.heading-with-cta-button', title: 'Ready?', subText: 'Go', isVisible: true, cta: link('/go', 'Go') },
  { __component: 'sections.image-with-cta-button', title: 'Look', subText: 'Here', image: image('$photo', 'Look'), link: link('/look', 'Look'), isVisible: false },
  { __component: 'sections.horizontal-images', title: 'Gallery', isVisible: true, spacing: 4, imageRadius: 'sm', fixedImageHeight: 120, fixedImageWidth: 160, images: [{ image: image('$logo', 'Logo') }] },
  { __component: 'sections.animated-logo-row', text: 'Trusted by', isVisible: true, logos: [image('$logo', 'A'), image('$photo', 'B')] },
];

const seo = (title: string) => ({
  metaTitle: title,
  metaDescription: `${title}, described`,
  metaImage: '$hero',
  keywords: 'starter,strapi',
  metaRobots: 'index',
  siteName: 'Starter',
  twitter: { card: 'summary', title, description: 'On X', siteId: '1', creator: '@starter', creatorId: '2', images: ['$photo', '$logo'] },
});

export const SEED: SeedStep[] = [
  { from: 'the admin adds the Czech locale (Settings, Internationalization)', admin: { uid: 'plugin::i18n.locale', data: { name: 'Czech (cs)', code: 'cs' } } },
  { as: 'logo', upload: { name: 'logo.png', width: 40, height: 16, rgb: [10, 10, 10] } },
  { as: 'hero', upload: { name: 'hero.png', width: 64, height: 36, rgb: [250, 120, 0] } },
  { as: 'photo', upload: { name: 'photo.png', width: 30, height: 30, rgb: [0, 120, 250] } },
  { method: 'PUT', path: '/api/configuration', body: { data: { darkMode: true } } },
  { method: 'PUT', path: '/api/navbar?locale=en', body: { data: { links: [link('/about', 'About'), link('/contact', 'Contact')], logoImage: { image: image('$logo', 'Logo', 40, 16), link: link('/', 'Home') } } } },
  // Strapi 4.26.2 refuses a PUT ?locale=cs once the type has an entry (singleType.alreadyExists): its localizations route.
  { method: 'POST', path: '/api/navbar/localizations', body: { locale: 'cs', links: [link('/about', 'O nás')], logoImage: { image: image('$logo', 'Logo') } } },
  {
    method: 'PUT',
    path: '/api/footer?locale=en',
    body: {
      data: {
        copyRight: '© Starter',
        gridCols: { desktop: 4, tablet: 2, mobile: 1 },
        sections: [{ title: 'Company', links: [link('/about', 'About'), link('/jobs', 'Jobs')] }, { title: 'Legal', links: [link('/terms', 'Terms')] }],
        links: [link('https://github.example', 'GitHub', true)],
        logoImage: { image: image('$logo', 'Logo'), link: link('/', 'Home') },
      },
    },
  },
  { as: 'aboutEn', method: 'POST', path: '/api/pages', body: { data: { slug: 'about', seo: seo('About'), content: aboutContent('en') } } },
  { as: 'aboutCs', method: 'POST', path: '/api/pages', body: { data: { slug: 'about', locale: 'cs', seo: seo('O nás'), content: aboutContent('cs') } } },
  { as: 'contact', method: 'POST', path: '/api/pages', body: { data: { slug: 'contact', content: [{ __component: 'sections.heading-with-cta-button', title: 'Write us', isVisible: true }] } } },
];

/** `config/sync/user-role.public.json`'s content actions (configuration, footer and navbar have `find` only). */
export const PUBLIC_TYPES: string[] = ['page'];
export const ROLE_ACTIONS = { public: ['api::configuration.configuration.find', 'api::footer.footer.find', 'api::navbar.navbar.find'] };

export const TOKENS: TokenPermissions = { editor: ['api::page.page.create', 'api::page.page.find'] };

/** Strapi.fetchOneBySlug(uid, slug, params): the params, then its sort and slug filter. */
const bySlug = (params: string, slug: string) => `/api/pages?${params}&sort[publishedAt]=desc&filters[slug][$eq]=${slug}`;
const SEO_POPULATE = 'populate=seo,seo.metaImage,seo.metaSocial,seo.twitter';

export const CLIENT_REQUESTS: ClientRequest[] = [
  { from: `${UI}/components/page-builder/single-types/Navbar.tsx fetchData('en')`, path: '/api/navbar?populate=deep&locale=en' },
  { from: `${UI}/components/page-builder/single-types/Navbar.tsx fetchData('cs')`, path: '/api/navbar?populate=deep&locale=cs' },
  { from: `${UI}/components/page-builder/single-types/Footer.tsx fetchData('en')`, path: '/api/footer?populate=deep&locale=en' },
  { from: `${UI}/components/page-builder/single-types/Footer.tsx fetchData('cs'), none yet`, path: '/api/footer?populate=deep&locale=cs' },
  { from: `${UI}/app/[locale]/builder/[...rest]/page.tsx fetchData('about', 'en')`, path: bySlug('populate=deep&locale=en', 'about') },
  { from: `${UI}/app/[locale]/builder/[...rest]/page.tsx fetchData('about', 'cs')`, path: bySlug('populate=deep&locale=cs', 'about') },
  { from: `${UI}/app/[locale]/builder/[...rest]/page.tsx fetchData('contact', 'cs')`, path: bySlug('populate=deep&locale=cs', 'contact') },
  { from: `${UI}/lib/next-helpers.ts getMetadataFromStrapi('about', 'en')`, path: bySlug(`locale=en&${SEO_POPULATE}`, 'about') },
  { from: `${UI}/lib/next-helpers.ts getMetadataFromStrapi('contact', 'en')`, path: bySlug(`locale=en&${SEO_POPULATE}`, 'contact') },
  { from: `${UI}/app/[locale]/_components/Configuration.tsx getData`, path: '/api/configuration?populate=*' },
  {
    from: `${UI}/app/[locale]/auth/register/_components/RegisterForm.tsx`,
    path: '/api/auth/local/register',
    method: 'POST',
    body: { username: 'eva@example.com', email: 'eva@example.com', password: 'Secret-123', checkPassword: 'Secret-123' },
    as: 'eva',
  },
  { from: `${UI}/lib/auth.ts authorize (credentials)`, path: '/api/auth/local', method: 'POST', body: { identifier: 'eva@example.com', password: 'Secret-123' }, as: 'eva' },
  { from: `${UI}/lib/auth.ts session callback: users/me`, path: '/api/users/me', jwt: 'eva' },
  {
    from: `${UI}/app/[locale]/auth/change-password/_components/ChangePasswordForm.tsx, mismatch`,
    path: '/api/auth/change-password',
    method: 'POST',
    body: { currentPassword: 'Secret-123', password: 'Secret-456', passwordConfirmation: 'Secret-789' },
    jwt: 'eva',
  },
  { from: `${UI}/lib/auth.ts authorize, wrong password`, path: '/api/auth/local', method: 'POST', body: { identifier: 'eva@example.com', password: 'Secret-000' } },
  { from: "an editor's page with a slug its locale has (lifecycles.ts, not in the frontend)", path: '/api/pages', method: 'POST', body: { data: { slug: 'about' } }, token: 'editor' },
  { from: "an editor's page with a slug another locale has (lifecycles.ts, not in the frontend)", path: '/api/pages', method: 'POST', body: { data: { slug: 'contact', locale: 'cs' } }, token: 'editor' },
  { from: "an editor's page with a slug the regex refuses (not in the frontend)", path: '/api/pages', method: 'POST', body: { data: { slug: 'Not Valid' } }, token: 'editor' },
  { from: `${UI}/app/[locale]/builder/[...rest]/page.tsx fetchData('contact', 'cs'), now`, path: bySlug('populate=deep&locale=cs', 'contact') },
  { from: 'the locales (i18n content API, not in the frontend)', path: '/api/i18n/locales' },
];
