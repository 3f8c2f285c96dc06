/**
 * Monitoring plugins, booted together (one-app.ts):
 * - strapi-health-plugin: its routes are an array (Strapi's admin routes, at
 *   `/health`), one `ALL` route marked `auth: false` whose handler is an array
 *   of functions; it answers uptime, `OK` and a timestamp to anyone.
 * - strapi-prometheus (v1, the last for Strapi v4): its register collects process
 *   metrics (prom-client's default collectors) and declares its HTTP metrics; its
 *   bootstrap adds a server middleware (`strapi.server.use`) that times every
 *   request and labels it with koa-router's `ctx._matchedRoute`, and counts open
 *   connections (`strapi.server.httpServer.getConnections`); its content-API
 *   routes (`prefix: ''`: `/api/metrics`, `/api/metrics/:name`) need a
 *   credential, as its README says, and answer through `ctx.badRequest`/`ctx.notFound`.
 */
import { expect } from 'chai';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

export const HEALTH: EcosystemSuite = {
  title: 'strapi-health-plugin@1.2.2',
  packages: { 'strapi-health-plugin': '1.2.2' },
  files: {},
  tests: {
    'answers GET, HEAD and POST on /health to anyone with uptime, OK and a timestamp': async (app) => {
      const before = Date.now();
      const health = await app.get('/health');
      expect(health.status, health.text).to.equal(200);
      expect(health.body).to.have.all.keys('uptime', 'message', 'timestamp');
      expect(health.body.message).to.equal('OK');
      expect(health.body.uptime).to.be.a('number').and.to.be.above(0);
      expect(health.body.timestamp).to.be.within(before, Date.now());
      // Its one route is `ALL`: every method reaches it.
      const posted = await app.post('/health', {});
      expect([posted.status, posted.body.message]).to.deep.equal([200, 'OK']);
      const head = await app.request('HEAD', '/health');
      expect(head.status).to.equal(200);
      expect((await app.get('/health/')).body.message).to.equal('OK');
      expect((await app.get('/health/more')).status).to.equal(404);
    },
  },
};

/** The value of a metric's sample line whose labels include all of `labels`, or undefined. */
function sample(text: string, metric: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== metric) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([name, value]) => found[name] === value)) return Number(match[3]);
  }
  return undefined;
}

export const PROMETHEUS: EcosystemSuite = {
  title: 'strapi-prometheus@1.9.2',
  packages: { 'strapi-prometheus': '1.9.2', '@strapi/plugin-users-permissions': '4.26.2' },
  files: {
    ...ARTICLE_APP,
    // Its README's configuration, with a custom label on every metric.
    'config/plugins.js': `module.exports = {
  'strapi-prometheus': { enabled: true, config: { prefix: '', fullURL: false, includeQuery: false, enabledMetrics: { koa: true, process: true, http: true, apollo: false }, interval: 10_000, customLabels: { name: 'strapi-prometheus' }, server: { enabled: false } } },
};
`,
  },
  tests: {
    'times each request by its route, answers the metrics as text and JSON to a credential, and refuses anyone else': async (app) => {
      const token = await app.fullAccessToken();
      const created = await app.post('/api/articles', { data: { title: 'Measured' } }, { token });
      expect(created.status).to.equal(200);
      for (let i = 0; i < 3; i += 1) expect((await app.get(`/api/articles/${created.body.data.id}`)).status).to.equal(200);
      // The public role has no grant for its routes.
      const anonymous = await app.get('/api/metrics');
      expect(anonymous.status).to.equal(403);
      const metrics = await app.get('/api/metrics', { token });
      expect(metrics.status, metrics.text).to.equal(200);
      // It writes its Content-Type into the copy `ctx.response.headers` returns: Koa's own, from the string body, stays.
      expect(metrics.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
      const text = metrics.text;
      // The route's pattern, not the URL, is the path label (fullURL: false). Its custom labels are set on its
      // registry, but the routes answer `Registry.merge([...])`, a new registry without them, on Strapi as here.
      expect(sample(text, 'http_request_duration_s_count', { method: 'GET', path: '/api/articles/:id', status: '200' })).to.equal(3);
      expect(text).to.not.include('name="strapi-prometheus"');
      expect(sample(text, 'http_request_duration_s_count', { method: 'POST', path: '/api/articles', status: '200' })).to.equal(1);
      // Its own route is left out (`${strapi.config.api.rest.prefix}/metrics`), refused or not.
      expect(text).to.not.include('path="/api/metrics"');
      expect(sample(text, 'http_request_size_bytes_count', { method: 'POST', path: '/api/articles', status: '200' })).to.equal(1);
      expect(sample(text, 'http_request_size_bytes_sum', { method: 'POST', path: '/api/articles', status: '200' })).to.equal(JSON.stringify({ data: { title: 'Measured' } }).length);
      // Process metrics of prom-client's default collectors.
      expect(sample(text, 'process_cpu_user_seconds_total', {})).to.be.above(0);
      expect(text).to.include('# TYPE number_of_open_connections gauge');
      const json = await app.get('/api/metrics?format=json', { token });
      expect(json.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      const duration = json.body.find((metric: { name: string }) => metric.name === 'http_request_duration_s');
      expect(duration).to.deep.include({ type: 'histogram', help: 'Duration of HTTP requests in seconds', aggregator: 'sum' });
      const one = await app.get('/api/metrics/http_request_size_bytes', { token });
      expect(one.status).to.equal(200);
      expect(one.text.split('\n')[0]).to.equal('# HELP http_request_size_bytes Size of HTTP requests in bytes');
      expect((await app.get('/api/metrics/nothing_here', { token })).status).to.equal(404);
      const oneJson = await app.get('/api/metrics/number_of_open_connections?format=json', { token });
      expect(oneJson.body).to.deep.include({ name: 'number_of_open_connections', type: 'gauge' });
      const refused = await app.get('/api/metrics?format=xml', { token });
      expect(refused.body).to.deep.equal({ data: null, error: { status: 400, name: 'BadRequestError', message: 'Invalid format. possible format: text, json', details: {} } });
    },
  },
};
