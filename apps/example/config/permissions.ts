// Actions granted to anonymous callers (the public role).
export default {
  public: [
    'api::article.article.find',
    'api::article.article.findOne',
    'api::category.category.find',
    'api::category.category.findOne',
    'api::tag.tag.find',
    'api::tag.tag.findOne',
    'api::writer.writer.find',
    'api::writer.writer.findOne',
    'api::homepage.homepage.find',
    'api::page.page.find',
    'api::page.page.findOne',
  ],
};
