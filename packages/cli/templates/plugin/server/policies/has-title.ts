// A policy returns false to refuse the request (403 PolicyError) before the controller runs.
export default (policyContext) => {
  const data = policyContext.ctx.request.body?.data;
  return typeof data?.title === 'string' && data.title.trim() !== '';
};
