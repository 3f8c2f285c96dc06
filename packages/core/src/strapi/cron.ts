/**
 * `strapi.cron`: Strapi v4's cron service on node-schedule (the library
 * Strapi itself uses, so rules, `tz`, `start`/`end` and Date rules mean
 * exactly what they mean there).
 *
 *   strapi.cron.add({ '*\/5 * * * *': ({ strapi }) => … })                 // rule as the key
 *   strapi.cron.add({ cleanup: { task: ({ strapi }) => …, options: { rule: '0 0 * * *', tz: 'Europe/Paris' } } })
 *   strapi.cron.remove('cleanup')
 *
 * Jobs added before the app is loaded start with it (`start`, after bootstrap, as in Strapi);
 * `destroy` cancels every job so no timer outlives the app.
 */
import { Job, type RecurrenceRule, type RecurrenceSpecDateRange, type RecurrenceSpecObjLit } from 'node-schedule';
import { ConfigurationError } from '@tessera/errors';
import type { KernelContext } from '../types';

export type CronRule = string | number | Date | RecurrenceRule | RecurrenceSpecDateRange | RecurrenceSpecObjLit;

export type CronTaskFunction = (context: KernelContext, ...args: unknown[]) => unknown;

/** `{ rule: fn }` or `{ name: { task, options } }` (`options` is a rule or `{ rule, tz, start, end }`). */
export type CronTasks = Record<string, CronTaskFunction | { task: CronTaskFunction; options: CronRule }>;

export interface CronJobSpec {
  job: Job;
  options: CronRule;
  /** The task's key in the object form; null in the `{ rule: fn }` form. */
  name: string | null;
}

export class CronService {
  /** Strapi's `strapi.cron.jobs`: every added job with its rule and name. */
  readonly jobs: CronJobSpec[] = [];
  private running = false;

  constructor(private readonly context: () => KernelContext) {}

  add(tasks: CronTasks = {}): this {
    for (const [expression, value] of Object.entries(tasks)) {
      const spec = toSpec(expression, value);
      const task = spec.task;
      const job = new Job(spec.name ?? expression, (...args: unknown[]) => task(this.context(), ...args));
      if (this.running) schedule(job, spec.options, expression);
      this.jobs.push({ job, options: spec.options, name: spec.name });
    }
    return this;
  }

  remove(name: string): this {
    if (!name) throw new ConfigurationError('strapi.cron.remove needs the name of the job to remove');
    for (let index = this.jobs.length - 1; index >= 0; index -= 1) {
      if (this.jobs[index].name !== name) continue;
      this.jobs[index].job.cancel();
      this.jobs.splice(index, 1);
    }
    return this;
  }

  start(): this {
    for (const { job, options, name } of this.jobs) schedule(job, options, name ?? String(options));
    this.running = true;
    return this;
  }

  stop(): this {
    for (const { job } of this.jobs) job.cancel();
    this.running = false;
    return this;
  }

  destroy(): this {
    this.stop();
    this.jobs.length = 0;
    return this;
  }
}

function toSpec(expression: string, value: CronTasks[string]): { task: CronTaskFunction; options: CronRule; name: string | null } {
  if (typeof value === 'function') return { task: value.bind(undefined), options: expression, name: null };
  if (value && typeof value === 'object' && typeof value.task === 'function') return { task: value.task.bind(value), options: value.options, name: expression };
  throw new ConfigurationError(`Could not schedule a cron job for "${expression}": no function found.`);
}

/**
 * node-schedule returns false for a rule it cannot use: a cron string it cannot parse would silently never run, so
 * that is a boot error; a one-off date already past is left unscheduled, as in Strapi.
 */
function schedule(job: Job, options: CronRule, label: string): void {
  if (!job.schedule(options) && (typeof options === 'string' || isRuleObjectWithString(options))) throw new ConfigurationError(`cron job "${label}": invalid rule ${JSON.stringify(options)}`);
}

function isRuleObjectWithString(options: CronRule): boolean {
  return typeof options === 'object' && options !== null && 'rule' in options && typeof (options as { rule: unknown }).rule === 'string';
}
