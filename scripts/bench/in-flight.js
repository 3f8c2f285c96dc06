'use strict';
/**
 * Requests in flight in a bench server process, so the parent can wait for
 * the load it sent to drain before it captures a request's SQL or measures
 * the next scenario (queued requests would otherwise land in the middle).
 */
let inFlight = 0;

/** Koa middleware counting the requests being handled; put it first. */
async function trackInFlight(ctx, next) {
  inFlight += 1;
  try {
    await next();
  } finally {
    inFlight -= 1;
  }
}

/** Resolves once no request is being handled. */
async function idle() {
  while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Resolves once no request has been in flight for `quietMs` (requests still in socket buffers start in between). */
async function drained(quietMs = 300) {
  let quietSince = Date.now();
  while (Date.now() - quietSince < quietMs) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (inFlight > 0) quietSince = Date.now();
  }
}

module.exports = { trackInFlight, idle, drained };
