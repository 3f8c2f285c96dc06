/**
 * `strapi.entityService.decorate(decorator)`, as Strapi v4's entity service
 * has it: a decorator gets the current implementation and returns methods
 * that replace some of it (`findOne`, `delete`, `wrapParams` …), usually
 * calling the ones it replaced. Each method runs with `this` being the whole
 * current implementation, so the default reads and writes call
 * `this.wrapParams(params, { uid, action })` before and
 * `this.wrapResult(result, { uid, action })` after the work, and a decorator
 * of `wrapParams` alone changes every read (strapi-plugin-soft-delete leaves
 * deleted entries out so).
 *
 * Until the first decorator nothing changes and nothing is paid. After it,
 * the service's methods are own properties that call the implementation:
 * every caller goes through the decorators — server code, plugins, and the
 * content API's writes and reads (content-api.ts reads through them once
 * `decorated` is true), as Strapi's core API service calls its entity service.
 */

/** One method of the implementation; `this` is the implementation as decorated so far. */
export type EntityServiceMethod = (this: EntityServiceImplementation, ...args: unknown[]) => unknown;

export type EntityServiceImplementation = Record<string, EntityServiceMethod>;

/** What Strapi code passes to `decorate`: the current implementation in, the methods to replace out. */
export type EntityServiceDecorator = (current: EntityServiceImplementation) => Partial<EntityServiceImplementation>;

/** The service's own methods the default implementation runs (entity-service.ts), by Strapi's names. */
const READS = ['findMany', 'findPage', 'findOne', 'count'] as const;
const WRITES = ['create', 'update', 'delete'] as const;

const implementations = new WeakMap<object, EntityServiceImplementation>();

/** Applies `decorator` to `service`; true from then on for `isDecorated(service)`. */
export function decorate(service: object, decorator: EntityServiceDecorator): void {
  if (typeof decorator !== 'function') throw new TypeError(`Decorator must be a function, received ${typeof decorator}`);
  const current = implementations.get(service) ?? defaultImplementation(service);
  const next: EntityServiceImplementation = { ...current };
  // As Strapi's object spread: a decorator answering nothing replaces nothing.
  for (const [name, method] of Object.entries(decorator(current) ?? {})) if (typeof method === 'function') next[name] = method;
  implementations.set(service, next);
  for (const name of Object.keys(next)) {
    // An own property shadows the class's method of that name: every caller now reaches the decorators.
    Object.defineProperty(service, name, { value: (...args: unknown[]) => next[name].apply(next, args), configurable: true, writable: true });
  }
}

export function isDecorated(service: object): boolean {
  return implementations.has(service);
}

/**
 * Strapi's default implementation over the service's own (class) methods: the parameters go through
 * `this.wrapParams` and the answer through `this.wrapResult`; `count` answers a number and is not wrapped.
 */
function defaultImplementation(service: object): EntityServiceImplementation {
  const own = Object.getPrototypeOf(service) as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const run = (name: string, args: unknown[]) => own[name].apply(service, args);
  const implementation: EntityServiceImplementation = {
    async wrapParams(params: unknown) {
      return params;
    },
    async wrapResult(result: unknown) {
      return result;
    },
  };
  for (const name of [...READS, ...WRITES]) {
    // The params are the last argument: (uid, params) or (uid, id, params).
    const paramsAt = name === 'findOne' || name === 'update' || name === 'delete' ? 2 : 1;
    implementation[name] = async function (this: EntityServiceImplementation, ...args: unknown[]) {
      const uid = args[0];
      const params = await this.wrapParams(args[paramsAt] ?? {}, { uid, action: name });
      const result = await run(name, [...args.slice(0, paramsAt), params]);
      return name === 'count' ? result : this.wrapResult(result, { uid, action: name });
    };
  }
  return implementation;
}
