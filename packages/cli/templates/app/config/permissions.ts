// Actions granted to anonymous callers (the public role). Anything else needs an
// API token: `TOKEN=$(npm run -s api-token -- create --name my-token --type full-access)`.
export default {
  public: ['api::post.post.find', 'api::post.post.findOne'],
};
