/**
 * Content for FoodAdvisor's `api/` and the requests its `client/` makes.
 *
 * FoodAdvisor ships its content as `api/data.zip` (a Strapi-made SQLite file), which the fixture leaves out, so
 * the same content is written through the content API on both servers: the real Strapi 4.26.2 (to record its
 * answers, `foodadvisor-strapi-4.26.2.json`) and Tessera (the test). The requests are the ones `client/` sends
 * (utils/index.js, pages/_app.js, pages/blog/*, pages/restaurants/*, utils/localize.js), with the client's own
 * query strings; `$name` stands for the id the seed step `name` got.
 *
 * FoodAdvisor commit ba9fdaea886b1183fae8e43e0edce0ded963779c (strapi/foodadvisor, 2024-01-31).
 */

import type { ClientRequest, SeedStep } from './content-client';

const link = (label: string, href: string) => ({ label, href, isExternal: false });
const seo = (title: string, image: string) => ({ metaTitle: title, metaDescription: `${title}: restaurants, reviews and stories from FoodAdvisor.`, metaImage: image });
const header = (title: string) => ({ theme: 'primary', label: 'FoodAdvisor', title });

export const SEED: SeedStep[] = [
  { as: 'photo1', upload: { name: 'photo-one.png', width: 40, height: 30, rgb: [200, 30, 30] } },
  { as: 'photo2', upload: { name: 'photo-two.png', width: 30, height: 40, rgb: [30, 200, 30] } },
  { as: 'catEuropean', method: 'POST', path: '/api/categories', body: { data: { name: 'European', slug: 'european' } } },
  { as: 'catAsian', method: 'POST', path: '/api/categories', body: { data: { name: 'Asian', slug: 'asian' } } },
  { as: 'placeParis', method: 'POST', path: '/api/places', body: { data: { name: 'Paris' } } },
  { as: 'placeLyon', method: 'POST', path: '/api/places', body: { data: { name: 'Lyon' } } },
  ...['Mint Lounge', 'Le Bistrot', 'Sakura', 'Pho Street'].map((name, index): SeedStep => ({
    as: `restaurant${index + 1}`,
    method: 'POST',
    path: '/api/restaurants',
    body: {
      data: {
        name,
        slug: name.toLowerCase().replace(/ /g, '-'),
        images: index % 2 === 0 ? ['$photo1', '$photo2'] : ['$photo2'],
        price: `p${(index % 4) + 1}`,
        category: index < 2 ? '$catEuropean' : '$catAsian',
        place: index % 2 === 0 ? '$placeParis' : '$placeLyon',
        information: {
          description: `${name} serves food.`,
          opening_hours: [{ day_interval: 'Mon - Fri', opening_hour: '11:00', closing_hour: '22:00' }],
          location: { address: `${index + 1} rue de la Paix`, website: 'https://example.com', phone: '0102030405' },
        },
        socialNetworks: [{ url: `https://social.example/${index}` }],
        blocks: [
          { __component: 'restaurant.rich-content', content: `## ${name}\n\nGood food.` },
          { __component: 'blocks.faq', title: 'FAQ', theme: 'muted', faq: [{ question: 'Open on Sunday?', answer: 'No.' }] },
        ],
        seo: seo(name, '$photo1'),
      },
    },
  })),
  ...['Best bistros', 'Ramen guide', 'Street food'].map((title, index): SeedStep => ({
    as: `article${index + 1}`,
    method: 'POST',
    path: '/api/articles',
    body: {
      data: {
        title,
        slug: title.toLowerCase().replace(/ /g, '-'),
        image: index === 1 ? '$photo2' : '$photo1',
        category: index === 0 ? '$catEuropean' : '$catAsian',
        ckeditor_content: `<p>${title}</p>`,
        blocks: [
          { __component: 'blocks.faq', title: 'Questions', theme: 'primary', faq: [{ question: 'Why?', answer: 'Because.' }] },
          { __component: 'blocks.cta-command-line', theme: 'secondary', title: 'Try it', text: 'Run', commandLine: 'npx create-strapi-app' },
        ],
        seo: seo(title, '$photo2'),
      },
    },
  })),
  { method: 'PUT', path: '/api/articles/$article1', body: { data: { blocks: [{ __component: 'blocks.related-articles', header: header('Related'), articles: ['$article2', '$article3'] }] } } },
  {
    method: 'PUT',
    path: '/api/global',
    body: {
      data: {
        navigation: { links: [link('Restaurants', '/restaurants'), link('Blog', '/blog')], leftButton: link('Home', '/'), rightButton: link('Contact', '/contact') },
        footer: {
          label: 'FoodAdvisor',
          footerColumns: [{ links: [link('About', '/about')] }, { links: [link('Careers', '/careers'), link('Press', '/press')] }],
          socialNetworks: [{ url: 'https://twitter.example/foodadvisor' }],
          button: { theme: 'primary', link: link('Sign up', '/signup') },
        },
      },
    },
  },
  {
    method: 'PUT',
    path: '/api/blog-page',
    body: { data: { header: header('Our blog'), slug: 'blog', categoryText: 'Categories', articlesPerPage: 2, blocks: [{ __component: 'blocks.cta', theme: 'muted', title: 'Subscribe', text: 'Now', buttons: [{ theme: 'primary', link: link('Go', '/go') }] }], seo: seo('Blog', '$photo1') } },
  },
  {
    method: 'PUT',
    path: '/api/restaurant-page',
    body: { data: { header: header('Restaurants'), slug: 'restaurants', categoryText: 'Categories', PlaceText: 'Places', restaurantsPerPage: 2, blocks: [], seo: seo('Restaurants', '$photo2') } },
  },
  {
    as: 'pageHome',
    method: 'POST',
    path: '/api/pages',
    body: {
      data: {
        title: 'Home',
        slug: 'home',
        blocks: [
          { __component: 'blocks.hero', images: ['$photo1'], header: header('Welcome'), text: 'Find food', buttons: [{ theme: 'primary', link: link('Explore', '/restaurants') }] },
          { __component: 'blocks.related-restaurants', header: header('Top picks'), restaurants: ['$restaurant1', '$restaurant3'] },
          { __component: 'blocks.faq', title: 'FAQ', theme: 'muted', faq: [{ question: 'Free?', answer: 'Yes.' }] },
        ],
        seo: { ...seo('Home', '$photo1'), metaSocial: [{ socialNetwork: 'Twitter', title: 'Home', description: 'Home page', image: '$photo2' }] },
      },
    },
  },
];

/** Public read access FoodAdvisor's database grants (its `up_permissions` for the public role). */
export const PUBLIC_TYPES = ['article', 'blog-page', 'category', 'global', 'page', 'place', 'restaurant', 'restaurant-page', 'review'];

/** Requests as `client/` builds them (after `getStrapiURL`, which prefixes `/api`), with the client's parameters. */
export const CLIENT_REQUESTS: ClientRequest[] = [
  { from: 'pages/_app.js', path: '/api/global?populate[navigation][populate]=*&populate[footer][populate][footerColumns][populate]=*&locale=en' },
  { from: 'utils/index.js getData (pages)', path: '/api/pages?filters[slug][$eq]=home&locale=en&populate[blocks][populate]=members.picture,header,buttons.link,faq,featuresCheck,cards,pricingCards.perks,articles,restaurants,author.picture,images,cards.image,image&populate=localizations&populate[seo][populate]=metaSocial.image' },
  { from: 'utils/index.js getData (blog-page)', path: '/api/blog-page?locale=en&populate[blocks][populate]=*,buttons.link&populate=localizations&populate[header]=*&populate[seo]=metaSocial' },
  { from: 'utils/index.js getData (restaurant-page)', path: '/api/restaurant-page?locale=en&populate[blocks][populate]=*,buttons.link&populate=localizations&populate[header]=*&populate[seo]=metaSocial' },
  { from: 'utils/index.js getRestaurants', path: '/api/restaurants?pagination[limit]=2&pagination[start]=0&pagination[withCount]=true&populate=images,category,place,information,seo&locale=en' },
  { from: 'utils/index.js getRestaurants (page 2, category)', path: '/api/restaurants?pagination[limit]=1&pagination[start]=1&pagination[withCount]=true&populate=images,category,place,information,seo&filters[category][name][$eq]=Asian&locale=en' },
  { from: 'utils/index.js getRestaurants (place)', path: '/api/restaurants?pagination[limit]=12&pagination[start]=0&pagination[withCount]=true&populate=images,category,place,information,seo&filters[place][name][$eq]=Lyon&locale=en' },
  { from: 'utils/index.js getArticles', path: '/api/articles?pagination[limit]=2&pagination[start]=0&pagination[withCount]=true&populate=image,category,author,seo&locale=en' },
  { from: 'utils/index.js getArticles (category)', path: '/api/articles?pagination[limit]=12&pagination[start]=0&pagination[withCount]=true&populate=image,category,author,seo&filters[category][name][$eq]=European&locale=en' },
  { from: 'pages/blog/index.js', path: '/api/articles?pagination[limit]=2&locale=en&pagination[withCount]=true&populate=image,category,author' },
  { from: 'pages/blog/index.js, pages/restaurants/index.js', path: '/api/categories?pagination[limit]=99' },
  { from: 'pages/restaurants/index.js', path: '/api/restaurants?pagination[limit]=2&locale=en&pagination[withCount]=true&populate=images,place,category,header' },
  { from: 'pages/restaurants/index.js', path: '/api/places?pagination[limit]=99' },
  { from: 'pages/blog/[slug].js', path: '/api/articles?filters[slug]=best-bistros&locale=en&populate=localizations,image,author.picture,blocks.articles.image,blocks.faq,blocks.header' },
  { from: 'pages/restaurants/[slug].js', path: '/api/restaurants?filters[slug]=mint-lounge&locale=en&populate[reviews][populate]=author,author.picture&populate[information][populate]=opening_hours,location&populate[images][fields]=url&populate[category][fields]=name&populate[localizations]=*&populate[socialNetworks]=*&populate[blocks][populate]=restaurants.images,header,faq,buttons.link' },
  { from: 'utils/localize.js (page)', path: '/api/pages/$pageHome' },
  { from: 'utils/localize.js (article)', path: '/api/articles/$article2?locale=en' },
  { from: 'utils/localize.js (restaurant)', path: '/api/restaurants/$restaurant2?locale=en' },
  { from: 'utils/localize.js (restaurant-page)', path: '/api/restaurant-page?locale=en' },
  { from: 'utils/localize.js (blog-page)', path: '/api/blog-page?locale=en' },
];
