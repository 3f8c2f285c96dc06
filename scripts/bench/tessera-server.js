'use strict';
/**
 * Child process: the example app served by Tessera from the seeded database.
 *
 * Runs apart from the load generator so the two do not share an event loop.
 * Talks to the parent over IPC:
 *   → { type: 'ready', url }                       once listening
 *   ← { type: 'capture', id, request, warm }       parent asks for one request's SQL (warm: list totals kept)
 *   → { type: 'captured', id, status, body, queries: [{ sql, bindings }] }
 *   ← { type: 'idle', id } → { type: 'idle', id }   once no request is in flight
 *   ← { type: 'stop' }                             graceful exit (flushes --cpu-prof)
 *
 * Capturing SQL: `app.db.sql.onQuery` reports the SQL text of every
 * statement, but not its bindings, so while one capture request is in flight
 * the connection's executor is wrapped to record bindings as well. Nothing is
 * wrapped while load is measured.
 */
const { App } = require('@tessera/core');
const restPlugin = require('@tessera/plugin-rest').default;
const { trackInFlight, idle } = require('./in-flight');

const { dir, config } = JSON.parse(process.env.BENCH_APP);

async function main() {
  const app = new App({ dir, plugins: [restPlugin], config });
  await app.load();
  // Counts requests in flight, so a capture waits for the previous load to drain (its
  // queued requests would otherwise be recorded too). Koa composes on listen, so this runs first.
  app.server.koa.middleware.unshift(trackInFlight);
  await app.start();

  const stop = async () => {
    await app.destroy().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', () => undefined); // the parent decides when we stop
  process.on('disconnect', stop); // parent died: never outlive it

  process.on('message', async (message) => {
    if (message.type === 'stop') return stop();
    if (message.type === 'idle') return idle().then(() => process.send({ type: 'idle', id: message.id }));
    if (message.type === 'capture') {
      try {
        const result = await capture(app, message.request, message.warm === true);
        process.send({ type: 'captured', id: message.id, ...result });
      } catch (error) {
        process.send({ type: 'captured', id: message.id, error: String(error && error.stack) });
      }
    }
  });
  process.send({ type: 'ready', url: app.url });
}


/** Sends `request` to ourselves and returns the answer plus every SQL statement it ran. */
async function capture(app, request, warm) {
  await idle();
  // Warm the caller's permission cache first (users-permissions reloads a role every permissionsCacheTtl ms):
  // the capture must hold the request's own SQL, not a periodic reload that happens to fall on it.
  const authorization = request.headers?.authorization;
  await (await fetch(`${app.url}/api/articles/1`, { headers: authorization ? { authorization } : {} })).text();
  // And capture the full statement list: the page with its total (count(*) over ()) and the populates. Under load the
  // total mostly comes from Tessera's count cache, and the page alone: `warm` captures that form (the baseline keeps its
  // own totals per scenario and filter the same way).
  if (!warm) app.db.counts.dropAll();
  const connection = app.db.sql;
  const queries = [];
  const unsubscribe = connection.onQuery((sql, bindings) => queries.push({ sql, bindings: [...bindings] }));
  try {
    const response = await fetch(`${app.url}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    const text = await response.text();
    return { status: response.status, headers: answerHeaders(response.headers), body: text, queries };
  } finally {
    unsubscribe();
  }
}

/**
 * The response headers a bare server must send too for the answer to be the same (the security headers, Vary,
 * X-Powered-By, the content type): all but those that vary per response or per connection.
 */
const PER_RESPONSE = new Set(['date', 'content-length', 'connection', 'keep-alive', 'transfer-encoding']);
function answerHeaders(headers) {
  return [...headers].filter(([name]) => !PER_RESPONSE.has(name));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
