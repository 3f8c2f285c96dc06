export default ({ env }) => ({
  rest: {
    defaultLimit: 25,
    maxLimit: 100,
    withCount: true,
    strictParams: env.bool('REST_STRICT_PARAMS', false),
    publicPreview: env.bool('REST_PUBLIC_PREVIEW', false),
  },
});
