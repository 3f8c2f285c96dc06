'use strict';
/**
 * Load generation with autocannon: a short warm-up (JIT, statement caches,
 * SQLite page cache), then the measured run. Requests come from the
 * scenario's generator, so ids and bodies can vary per request.
 */
const fs = require('node:fs');
const autocannon = require('autocannon');

const TICK_US = 1e6 / 100; // /proc reports CPU time in clock ticks (USER_HZ, 100 on Linux)

/**
 * CPU time the server process has used so far, in µs (user + system, from
 * /proc). Per request it shows the server's own cost even when other work
 * shares the machine and req/s moves with it; undefined off Linux.
 */
function cpuMicros(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_US; // utime, stime
  } catch {
    return undefined;
  }
}

/** Runs autocannon against `url`; resolves with its raw result. */
function run(url, nextRequest, { connections, duration }) {
  return autocannon({
    url,
    connections,
    duration,
    pipelining: 1,
    requests: [
      {
        setupRequest: (request) => {
          const next = nextRequest();
          return {
            ...request,
            method: next.method,
            path: next.path,
            headers: { ...request.headers, ...next.headers },
            body: next.body === undefined ? undefined : JSON.stringify(next.body),
          };
        },
      },
    ],
  });
}

/**
 * Warm-up then measurement; returns `{ rps, p50, p99, requests, failures, timeouts, cpuPerRequest }`
 * (failures: non-2xx answers and connection errors; timeouts are reported apart,
 * since an overloaded machine can cause them without anything being wrong).
 * `server.idle()` resolves once the server has drained the requests autocannon
 * left queued, so the next run (or the other server) starts on a quiet machine.
 */
async function measure(server, nextRequest, options) {
  await run(server.url, nextRequest, { ...options, duration: options.warmup });
  await server.idle();
  const cpuBefore = cpuMicros(server.child.pid);
  const result = await run(server.url, nextRequest, options);
  await server.idle();
  const cpuAfter = cpuMicros(server.child.pid);
  return {
    cpuPerRequest: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors - result.timeouts,
    timeouts: result.timeouts,
  };
}

module.exports = { measure, run };
