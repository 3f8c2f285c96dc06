/**
 * Content for the Epic Next.js 14 tutorial's `backend/` (PaulBratslavsky/epic-next-course, Strapi 4.20.3) and the
 * requests its `frontend/` sends: the public home page and global reads, then a user's whole session — register,
 * sign in, `users/me`, profile and profile-picture updates, summaries created, listed, searched, read, edited and
 * deleted — with the JWT the sign-in answered, as its Next.js server actions send them (frontend/src/data/).
 *
 * The backend's own code decides most answers: `src/index.js`'s `register` pushes two global middlewares onto
 * users-permissions' routes through the global `strapi` (`user-find-many` on GET /users, `user-can-update` on
 * PUT /users/:id, which keeps four fields of the body), and the summary router runs `global::is-owner` (a user's
 * own entries only) and `api::summary.on-summary-create` (a credit per summary, the summary connected to the user
 * after the controller). The repository's content is a Strapi export (`backup-data.tar.gz`), so the same content is
 * written through the content API on both servers; the roles are granted what the tutorial has you tick in the
 * admin panel, and an admin gives a user credits (an admin step) as the tutorial does.
 *
 * PaulBratslavsky/epic-next-course commit be2b8325cec63592287633d932f3830d35261b52 (2024-04-29).
 */
import type { AdminStep, ClientRequest, RoleActions, SeedStep } from './content-client';

const LOADERS = 'frontend/src/data/loaders.ts';
const AUTH = 'frontend/src/data/services/auth-service.ts';
const PROFILE = 'frontend/src/data/actions/profile-actions.ts';
const SUMMARY = 'frontend/src/data/actions/summary-actions.ts';
const link = (url: string, text: string, isExternal = false) => ({ url, text, isExternal });

export const SEED: SeedStep[] = [
  { as: 'hero', upload: { name: 'hero.png', width: 64, height: 36, rgb: [30, 60, 200] } },
  {
    method: 'PUT',
    path: '/api/home-page',
    body: {
      data: {
        title: 'Home Page',
        description: 'The home page',
        blocks: [
          { __component: 'layout.hero-section', heading: 'Summarize videos', subHeading: 'Save time', image: '$hero', link: link('/login', 'Login') },
          {
            __component: 'layout.features-section',
            title: 'Features',
            description: 'What it does',
            feature: [
              { heading: 'Save time', subHeading: 'Skip to the point', icon: 'CLOCK_ICON' },
              { heading: 'Accurate', subHeading: 'Key points', icon: 'CHECK_ICON' },
              { heading: 'Cloud', subHeading: 'Anywhere', icon: 'CLOUD_ICON' },
            ],
          },
        ],
      },
    },
  },
  {
    method: 'PUT',
    path: '/api/global',
    body: {
      data: {
        title: 'Epic Next',
        description: 'Summaries of videos',
        header: { logoText: link('/', 'Summarize AI'), ctaButton: link('/signup', 'Get Started') },
        footer: { logoText: link('/', 'Summarize AI'), text: 'Made with love', socialLink: [link('https://youtube.example', 'YouTube', true), link('https://x.example', 'X', true)] },
      },
    },
  },
];

export const PUBLIC_TYPES = ['home-page', 'global'];

/** What the tutorial has you grant the Authenticated role in the admin panel. */
export const ROLE_ACTIONS: RoleActions = {
  authenticated: [
    ...['find', 'findOne', 'create', 'update', 'delete'].map((action) => `api::summary.summary.${action}`),
    'plugin::users-permissions.user.find',
    'plugin::users-permissions.user.update',
    'plugin::upload.content-api.upload',
    'plugin::upload.content-api.destroy',
  ],
};

const account = (name: string) => ({ username: name, password: `${name}-secret-1`, email: `${name}@example.com` });
const summary = (videoId: string, title: string, text: string) => ({ data: { videoId, title, summary: text } });
/** getSummaries(queryString, page): qs.stringify of its sort, `$or` filter and pagination. */
const summaries = (query: string, page = 1) =>
  `/api/summaries?sort[0]=createdAt:desc&filters[$or][0][title][$containsi]=${query}&filters[$or][1][summary][$containsi]=${query}&pagination[pageSize]=4&pagination[page]=${page}`;
const USER_ME = '/api/users/me?populate[image][fields][0]=url&populate[image][fields][1]=alternativeText';

export const CLIENT_REQUESTS: Array<ClientRequest | AdminStep> = [
  {
    from: `${LOADERS} getHomePageData`,
    path: '/api/home-page?populate[blocks][populate][image][fields][0]=url&populate[blocks][populate][image][fields][1]=alternativeText&populate[blocks][populate][link][populate]=true&populate[blocks][populate][feature][populate]=true',
  },
  { from: `${LOADERS} getGlobalPageData`, path: '/api/global?populate[0]=header.logoText&populate[1]=header.ctaButton&populate[2]=footer.logoText&populate[3]=footer.socialLink' },
  { from: `${LOADERS} getGlobalPageMetadata`, path: '/api/global?fields[0]=title&fields[1]=description' },
  { from: `${AUTH} registerUserService(alice)`, path: '/api/auth/local/register', method: 'POST', body: account('alice'), as: 'alice' },
  { from: `${AUTH} registerUserService(bob)`, path: '/api/auth/local/register', method: 'POST', body: account('bob'), as: 'bob' },
  { from: `${AUTH} registerUserService(alice) again`, path: '/api/auth/local/register', method: 'POST', body: account('alice') },
  { from: `${AUTH} loginUserService(alice)`, path: '/api/auth/local', method: 'POST', body: { identifier: 'alice@example.com', password: 'alice-secret-1' }, as: 'alice' },
  { from: `${AUTH} loginUserService, wrong password`, path: '/api/auth/local', method: 'POST', body: { identifier: 'alice', password: 'not-her-password' } },
  { from: 'frontend/src/data/services/get-user-me-loader.ts getUserMeLoader', path: USER_ME, jwt: 'alice' },
  { from: `${PROFILE} updateProfileAction`, path: '/api/users/$alice?populate=*', method: 'PUT', body: { firstName: 'Alice', lastName: 'Liddell', bio: 'Follows rabbits.' }, jwt: 'alice' },
  { from: `${PROFILE} updateProfileAction, another user's profile`, path: '/api/users/$alice?populate=*', method: 'PUT', body: { firstName: 'Bob' }, jwt: 'bob' },
  { from: 'a user giving themselves credits (not in the frontend)', path: '/api/users/$alice', method: 'PUT', body: { bio: 'Rich now.', credits: 100, username: 'queen' }, jwt: 'alice' },
  { from: `${PROFILE} uploadProfileImageAction: fileUploadService`, path: '/api/upload', upload: { name: 'alice.png', width: 20, height: 20, rgb: [220, 40, 120] }, jwt: 'alice', as: 'avatar' },
  { from: `${PROFILE} uploadProfileImageAction: the user's image`, path: '/api/users/$alice', method: 'PUT', body: { image: '$avatar' }, jwt: 'alice' },
  { from: `${SUMMARY} createSummaryAction without credits`, path: '/api/summaries', method: 'POST', body: summary('v0', 'None', 'No credits.'), jwt: 'alice' },
  { from: 'the admin gives alice two credits (admin panel)', admin: { uid: 'plugin::users-permissions.user', where: { id: '$alice' }, data: { credits: 2 } } },
  { from: `${SUMMARY} createSummaryAction`, path: '/api/summaries', method: 'POST', body: summary('dQw4w9WgXcQ', 'First video', '# First\n\nA summary of the first video.'), jwt: 'alice', as: 'first' },
  { from: `${SUMMARY} createSummaryAction, a second`, path: '/api/summaries', method: 'POST', body: summary('9bZkp7q19f0', 'Second video', 'Dancing, summarized.'), jwt: 'alice', as: 'second' },
  { from: `${SUMMARY} createSummaryAction, credits used up`, path: '/api/summaries', method: 'POST', body: summary('v3', 'Third', 'Too many.'), jwt: 'alice' },
  { from: `${LOADERS} getSummaries('', 1)`, path: summaries(''), jwt: 'alice' },
  { from: `${LOADERS} getSummaries('dancing', 1)`, path: summaries('dancing'), jwt: 'alice' },
  { from: `${LOADERS} getSummaries('FIRST', 1)`, path: summaries('FIRST'), jwt: 'alice' },
  { from: `${LOADERS} getSummaries('', 2)`, path: summaries('', 2), jwt: 'alice' },
  { from: `${LOADERS} getSummaries('', 1) for another user`, path: summaries(''), jwt: 'bob' },
  { from: `${LOADERS} getSummaryById`, path: '/api/summaries/$first', jwt: 'alice' },
  { from: `${LOADERS} getSummaryById, another user's`, path: '/api/summaries/$first', jwt: 'bob' },
  { from: `${SUMMARY} updateSummaryAction`, path: '/api/summaries/$first', method: 'PUT', body: { data: { title: 'First video, edited', summary: 'Shorter.' } }, jwt: 'alice' },
  { from: `${SUMMARY} updateSummaryAction, another user's`, path: '/api/summaries/$first', method: 'PUT', body: { data: { title: 'Mine now' } }, jwt: 'bob' },
  { from: `${SUMMARY} deleteSummaryAction, another user's`, path: '/api/summaries/$second', method: 'DELETE', body: {}, jwt: 'bob' },
  { from: `${SUMMARY} deleteSummaryAction`, path: '/api/summaries/$second', method: 'DELETE', body: {}, jwt: 'alice' },
  { from: `${LOADERS} getSummaries('', 1) after the edits`, path: summaries(''), jwt: 'alice' },
  { from: 'frontend/src/data/services/get-user-me-loader.ts getUserMeLoader, after', path: USER_ME, jwt: 'alice' },
  { from: 'frontend/src/data/services/file-service.ts fileDeleteService', path: '/api/upload/files/$avatar', method: 'DELETE', body: {}, jwt: 'alice' },
  { from: 'GET /api/users with user-find-many (not in the frontend)', path: '/api/users', jwt: 'bob' },
  { from: 'the summaries without a JWT (not in the frontend)', path: '/api/summaries' },
  { from: 'the users without a JWT (not in the frontend)', path: '/api/users' },
];
