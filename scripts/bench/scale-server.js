'use strict';
/**
 * Child process for the scale bench: the seeded app served by Tessera, in
 * this process (`workers: 1`, as `tessera start` runs) or in N node:cluster
 * workers sharing one port (as `tessera start --workers N` runs).
 *
 *   → { type: 'ready', url }      once every worker listens
 *   ← { type: 'idle', id } → { type: 'idle', id }   once no worker has a request in flight
 *   ← { type: 'stop' }            graceful exit
 *
 * `idle` matters: a slow scenario leaves requests queued when autocannon
 * stops, and the next scenario must not be measured while they drain.
 */
const cluster = require('node:cluster');
const { App } = require('@tessera/core');
const restPlugin = require('@tessera/plugin-rest').default;
const { trackInFlight, drained } = require('./in-flight');

const { dir, config, workers, port } = JSON.parse(process.env.BENCH_APP);
const appConfig = { ...config, server: { ...config.server, port } };


async function serve() {
  const app = new App({ dir, plugins: [restPlugin], config: appConfig });
  await app.load();
  app.server.koa.middleware.unshift(trackInFlight);
  await app.start();
  const stop = async () => {
    await app.destroy().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', () => undefined);
  return { app, stop };
}

async function main() {
  if (cluster.isWorker) {
    const { app, stop } = await serve();
    process.on('disconnect', stop); // the primary died: never outlive it
    process.on('message', async (message) => {
      if (message.type !== 'idle') return;
      await drained();
      process.send({ type: 'idle', id: message.id });
    });
    process.send({ type: 'listening', url: app.url });
    return;
  }
  let stop;
  let url;
  if (workers > 1) {
    url = await new Promise((resolve) => {
      let listening = 0;
      for (let i = 0; i < workers; i += 1) {
        cluster.fork().on('message', (message) => {
          if (message.type === 'listening' && ++listening === workers) resolve(message.url);
        });
      }
    });
    stop = async () => {
      for (const worker of Object.values(cluster.workers)) worker.kill('SIGTERM');
      await new Promise((resolve) => cluster.on('exit', () => Object.keys(cluster.workers).length === 0 && resolve()));
      process.exit(0);
    };
  } else {
    const served = await serve();
    url = served.app.url;
    stop = served.stop;
  }
  process.on('disconnect', stop); // parent died: never outlive it
  process.on('message', async (message) => {
    if (message.type === 'stop') return stop();
    if (message.type === 'idle') {
      await Promise.all([drained(), ...Object.values(cluster.workers ?? {}).map(workerIdle)]);
      process.send({ type: 'idle', id: message.id });
    }
  });
  process.send({ type: 'ready', url });
}

let nextIdle = 1;
/** Resolves once `worker` reports no request in flight. */
function workerIdle(worker) {
  const id = nextIdle++;
  return new Promise((resolve) => {
    const onMessage = (message) => {
      if (message.type === 'idle' && message.id === id) {
        worker.off('message', onMessage);
        resolve();
      }
    };
    worker.on('message', onMessage);
    worker.send({ type: 'idle', id });
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
