// The admin panel's customisations, as in a Strapi v4 app (src/admin/app.js). Strapi's panel offers English and
// the locales named here in each user's profile; French shows the translations @strapi/admin ships.
export default {
  config: { locales: ['fr'] },
  bootstrap() {},
};
