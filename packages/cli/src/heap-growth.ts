/**
 * How far V8 lets old space grow before it collects it, for a served app.
 *
 * Under load, the entries of requests in flight outlive two scavenges and are
 * promoted; V8 then lets old space grow up to four times the live set before a
 * full collection, so the resident set follows what requests allocate, not
 * what the app keeps. Measured with `scripts/bench/versus-strapi.sh` on SQLite
 * (seven scenarios, 32 connections, 2026-11-30): the peak resident set fell
 * from 237 to 154–156 MiB (old space at the peak 127 → 44–52 MiB) with a
 * growth of 20%, with request rates within the run-to-run spread.
 *
 * Set at run time, as it is read at each collection; a value the operator set
 * (`node --heap-growing-percent=…`; NODE_OPTIONS does not take V8's flags) is
 * left alone.
 */
import v8 from 'node:v8';

const FLAG = 'heap-growing-percent';
const HEAP_GROWING_PERCENT = 20;

/** Whether the limit was set (false: the operator set their own). */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((option) => option.replace(/_/g, '-').includes(FLAG))) return false;
  v8.setFlagsFromString(`--${FLAG}=${HEAP_GROWING_PERCENT}`);
  return true;
}
