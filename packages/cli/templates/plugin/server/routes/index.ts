// Content-API routes are served under /api/{{name}}/; each needs its action (plugin::{{name}}.item.<action>)
// unless config.auth is false.
export default {
  'content-api': {
    type: 'content-api',
    routes: [
      { method: 'GET', path: '/items', handler: 'item.find' },
      { method: 'POST', path: '/items', handler: 'item.create', config: { policies: ['has-title'] } },
    ],
  },
};
