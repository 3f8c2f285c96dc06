/**
 * One request's execution of an operation plan (operation-plan.ts): graphql-js's execution algorithm
 * (16.x `execute`: resolve, complete, null propagation, error collection) over
 * fields collected at planning. What it saves per field is what graphql-js
 * redoes on every object of every request: field collection, field look-up,
 * type dispatch, argument coercion for fields that declare none, and the
 * `info` object of fields read with the default resolver.
 *
 * Answers, errors (messages, paths, locations, order) and resolver calls
 * (`source`, `args`, `context`, `info`) are graphql-js's: test/executor.test.ts
 * runs the same documents through both and compares them.
 */
import {
  getArgumentValues,
  GraphQLError,
  locatedError,
  type ExecutionResult,
  type GraphQLLeafType,
  type GraphQLResolveInfo,
  type ResponsePath,
} from 'graphql';
import { inspect } from 'graphql/jsutils/inspect';
import type { Completion, FieldPlan, LeafPlan, OperationPlan } from './operation-plan';
import { literalArguments } from './literal-arguments';

type Answer = Record<string, unknown>;
type Methods = Record<string, (args: unknown, context: unknown, info: GraphQLResolveInfo) => unknown>;

export class PlanRun {
  private readonly errors = new CollectedErrors();

  constructor(
    private readonly plan: OperationPlan,
    private readonly contextValue: unknown,
    private readonly variableValues: Record<string, unknown>,
    private readonly rootValue: unknown,
  ) {}

  /** graphql-js's execute: a root error leaves `data` null. */
  result(): ExecutionResult | Promise<ExecutionResult> {
    let data: Answer | Promise<Answer>;
    try {
      data = this.fields(this.plan.fields, this.rootValue, undefined);
    } catch (error) {
      this.errors.add(error as GraphQLError, undefined);
      return this.response(null);
    }
    if (!isPromise(data)) return this.response(data);
    return data.then(
      (resolved) => this.response(resolved),
      (error: unknown) => {
        this.errors.add(error as GraphQLError, undefined);
        return this.response(null);
      },
    );
  }

  private response(data: Answer | null): ExecutionResult {
    return this.errors.errors.length === 0 ? { data } : { errors: this.errors.errors, data };
  }

  /** An object's fields, in order; a promise when any of them is one. */
  private fields(fields: readonly FieldPlan[], source: unknown, path: ResponsePath | undefined): Answer | Promise<Answer> {
    const results: Answer = {};
    let pending = false;
    try {
      for (const field of fields) {
        const value = this.field(field, source, path);
        setAnswer(results, field.responseName, value);
        if (!pending && isPromise(value)) pending = true;
      }
    } catch (error) {
      // A non-null field failed: the object is null, once the fields already started have settled.
      if (pending) return promiseForObject(results).finally(() => { throw error; });
      throw error;
    }
    return pending ? promiseForObject(results) : results;
  }

  private field(field: FieldPlan, source: unknown, parentPath: ResponsePath | undefined): unknown {
    if (field.leaf !== undefined && field.definition.resolve === undefined) return this.leafField(field, field.leaf, source, parentPath);
    const path = pathOf(field, parentPath);
    let result: unknown;
    try {
      result = this.resolve(field, source, path);
    } catch (rawError) {
      return this.fieldError(rawError, field, path, field.completion);
    }
    return this.completeField(field, path, result);
  }

  /**
   * The commonest field: a scalar property of its parent, read by the default
   * resolver. No `info`, no path unless it is a method or fails; anything
   * unusual (a method, a promise, an error, a null where none may be) takes
   * the general completion, which makes graphql-js's errors.
   */
  private leafField(field: FieldPlan, leafPlan: LeafPlan, source: unknown, parentPath: ResponsePath | undefined): unknown {
    const value = isObjectLike(source) || typeof source === 'function' ? (source as Record<string, unknown>)[field.fieldName] : undefined;
    if (typeof value === 'function') return this.method(field, source, pathOf(field, parentPath));
    if (value === null || value === undefined) {
      if (!leafPlan.nonNull) return null;
    } else if (!(value instanceof Error) && !isPromise(value)) {
      let serialized: unknown;
      try {
        serialized = leaf(leafPlan, value);
      } catch (rawError) {
        return this.fieldError(rawError, field, pathOf(field, parentPath), field.completion);
      }
      if (!isPromise(serialized)) return serialized;
      // A scalar that serialises to a promise: settled as graphql-js settles a completed promise.
      const path = pathOf(field, parentPath);
      return serialized.then(undefined, (rawError: unknown) => this.fieldError(rawError, field, path, field.completion));
    }
    return this.completeField(field, pathOf(field, parentPath), value);
  }

  /** A resolved value (or promise) completed, its errors located and handled as graphql-js's executeField does. */
  private completeField(field: FieldPlan, path: ResponsePath, result: unknown): unknown {
    try {
      const completed = isPromise(result)
        ? result.then((resolved) => this.complete(field.completion, field, path, resolved))
        : this.complete(field.completion, field, path, result);
      if (isPromise(completed)) return completed.then(undefined, (rawError: unknown) => this.fieldError(rawError, field, path, field.completion));
      return completed;
    } catch (rawError) {
      return this.fieldError(rawError, field, path, field.completion);
    }
  }

  /** The field's resolver, with graphql-js's arguments; the default resolver without `info` unless it calls a method. */
  private resolve(field: FieldPlan, source: unknown, path: ResponsePath): unknown {
    if (field.typename !== undefined) return field.typename;
    // Read at each call, as graphql-js does: a resolver may be wrapped after the plan was made.
    const resolver = field.definition.resolve;
    if (resolver !== undefined && resolver === field.sourceOnly) return field.sourceOnly(source);
    const args = this.arguments(field);
    if (resolver !== undefined) return resolver(source, args, this.contextValue, this.info(field, path));
    if (!isObjectLike(source) && typeof source !== 'function') return undefined;
    const property = (source as Record<string, unknown>)[field.fieldName];
    if (typeof property !== 'function') return property;
    return (source as Methods)[field.fieldName](args, this.contextValue, this.info(field, path));
  }

  /** graphql-js's arguments: `{}` for a field that declares none, whatever the request; coerced once when written in the document. */
  private arguments(field: FieldPlan): Record<string, unknown> {
    if (!field.hasArguments) return {};
    if (field.literalArguments) return literalArguments(field);
    return getArgumentValues(field.definition, field.nodes[0], this.variableValues);
  }

  /** A scalar field whose property is a method: called as graphql-js's default resolver calls it. */
  private method(field: FieldPlan, source: unknown, path: ResponsePath): unknown {
    let result: unknown;
    try {
      result = (source as Methods)[field.fieldName]({}, this.contextValue, this.info(field, path));
    } catch (rawError) {
      return this.fieldError(rawError, field, path, field.completion);
    }
    return this.completeField(field, path, result);
  }

  private info(field: FieldPlan, path: ResponsePath): GraphQLResolveInfo {
    const { schema, fragments, operation } = this.plan;
    return {
      fieldName: field.definition.name,
      fieldNodes: field.nodes,
      returnType: field.definition.type,
      parentType: field.parentType,
      path,
      schema,
      fragments,
      rootValue: this.rootValue,
      operation,
      variableValues: this.variableValues,
    };
  }

  private complete(completion: Completion, field: FieldPlan, path: ResponsePath, result: unknown): unknown {
    if (result instanceof Error) throw result;
    if (completion.kind === 'nonNull') {
      const completed = this.complete(completion.of, field, path, result);
      if (completed === null) throw new Error(`Cannot return null for non-nullable field ${field.parentType.name}.${field.fieldName}.`);
      return completed;
    }
    if (result === null || result === undefined) return null;
    if (completion.kind === 'list') return this.list(completion.of, field, path, result);
    if (completion.kind === 'leaf') return leaf(completion, result);
    return this.fields(completion.fields, result, path);
  }

  private list(item: Completion, field: FieldPlan, path: ResponsePath, result: unknown): unknown {
    if (!isIterableObject(result)) {
      throw new GraphQLError(`Expected Iterable, but did not find one for field "${field.parentType.name}.${field.fieldName}".`);
    }
    const values = Array.isArray(result) ? result : Array.from(result);
    const completed = new Array<unknown>(values.length);
    let pending = false;
    for (let index = 0; index < values.length; index += 1) {
      completed[index] = this.listItem(item, field, { prev: path, key: index, typename: undefined }, values[index]);
      if (!pending && isPromise(completed[index])) pending = true;
    }
    return pending ? Promise.all(completed) : completed;
  }

  private listItem(item: Completion, field: FieldPlan, path: ResponsePath, value: unknown): unknown {
    try {
      const completed = isPromise(value) ? value.then((resolved) => this.complete(item, field, path, resolved)) : this.complete(item, field, path, value);
      if (isPromise(completed)) return completed.then(undefined, (rawError: unknown) => this.fieldError(rawError, field, path, item));
      return completed;
    } catch (rawError) {
      return this.fieldError(rawError, field, path, item);
    }
  }

  /** graphql-js's handleFieldError: a non-null position passes the error up; any other becomes null. */
  private fieldError(rawError: unknown, field: FieldPlan, path: ResponsePath, completion: Completion): null {
    const error = locatedError(rawError, field.nodes, pathToArray(path));
    if (completion.kind === 'nonNull') throw error;
    this.errors.add(error, path);
    return null;
  }
}

function pathOf(field: FieldPlan, parentPath: ResponsePath | undefined): ResponsePath {
  return { prev: parentPath, key: field.responseName, typename: field.parentType.name };
}

function isObjectLike(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function leaf(completion: { type: GraphQLLeafType }, result: unknown): unknown {
  const serialized = completion.type.serialize(result);
  if (serialized === null || serialized === undefined) {
    throw new Error(`Expected \`${inspect(completion.type)}.serialize(${inspect(result)})\` to return non-nullable value, returned: ${inspect(serialized)}`);
  }
  return serialized;
}

/**
 * graphql-js's error list: an error under a position already nulled by
 * another error's propagation is not reported twice.
 */
class CollectedErrors {
  readonly errors: GraphQLError[] = [];
  private readonly positions = new Set<ResponsePath | undefined>();

  add(error: GraphQLError, path: ResponsePath | undefined): void {
    if (this.nulled(path)) return;
    this.positions.add(path);
    this.errors.push(error);
  }

  private nulled(start: ResponsePath | undefined): boolean {
    for (let path = start; path !== undefined; path = path.prev) if (this.positions.has(path)) return true;
    return this.positions.has(undefined);
  }
}

/** graphql-js's isPromise (a thenable), without a property look-up on strings and numbers. */
function isPromise(value: unknown): value is Promise<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function isIterableObject(value: unknown): value is Iterable<unknown> {
  return typeof value === 'object' && typeof (value as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] === 'function';
}

/**
 * graphql-js answers with null-prototype objects, so that an alias named
 * `__proto__` is an ordinary key. Those are dictionary-mode objects in V8,
 * slow to fill and to serialise; an ordinary object with that one key
 * defined as an own property answers the same JSON.
 */
function setAnswer(answer: Answer, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(answer, key, { value, enumerable: true, writable: true, configurable: true });
  else answer[key] = value;
}

function promiseForObject(object: Answer): Promise<Answer> {
  const keys = Object.keys(object);
  return Promise.all(Object.values(object)).then((values) => {
    const resolved: Answer = {};
    keys.forEach((key, index) => setAnswer(resolved, key, values[index]));
    return resolved;
  });
}

function pathToArray(path: ResponsePath | undefined): Array<string | number> {
  const keys: Array<string | number> = [];
  for (let current = path; current !== undefined; current = current.prev) keys.push(current.key);
  return keys.reverse();
}
