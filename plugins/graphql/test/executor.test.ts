/**
 * The endpoint's executor (src/execute/) against graphql-js's `execute` on
 * the same schema, documents and variables: the same answers, the same
 * errors (message, path, locations), the same resolver calls (path,
 * arguments) in the same order — for documents it plans (queries) and for
 * those it hands to graphql-js (directives, unions, introspection,
 * mutations).
 */
import { expect } from 'chai';
import {
  buildSchema,
  execute,
  getOperationAST,
  GraphQLObjectType,
  parse,
  responsePathAsArray,
  type ExecutionResult,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import { Executor } from '../src/execute/executor';
import { planOperation } from '../src/execute/operation-plan';
import { sourceOnly } from '../src/execute/source-only';

const SDL = `
  interface Named { name: String }
  type Person implements Named { name: String, friends: [Person] }
  type Item implements Named {
    id: ID!
    name: String
    price: Float
    tags: [String!]
    label(upper: Boolean = false, prefix: String): String
    owner: Person
    boom: String
    asyncBoom: String
    nonNullBoom: String!
    method: String
    children: [Item!]!
    maybeChildren: [Item]
  }
  union Thing = Item | Person
  input Step { by: Int, labels: [String] }
  scalar Anything
  type Query {
    item(id: ID!): Item
    items(first: Int = 2): [Item!]!
    nullableItems: [Item]
    promisedItems: [Item]
    delayed: Item
    thing: Thing
    named: Named
    counted(step: Step = { by: 1 }, extra: Step, tags: [String] = ["t"], any: Anything): String
    numbers: [Int]
    notIterable: [Int]
    badInt: Int
    badNonNull: Item!
  }
  type Mutation { touch: Int }
`;

type Calls = Array<{ field: string; path: Array<string | number>; typenames: Array<string | undefined>; args: Record<string, unknown>; info: string }>;
type Context = { calls: Calls; user: string };

const PERSON = { name: 'Ada', friends: [{ name: 'Bob', friends: [] }, null] };

function item(id: number): Record<string, unknown> {
  return {
    id,
    name: `item ${id}`,
    price: id * 1.5,
    tags: ['a', `t${id}`],
    method: (_args: unknown, context: Context, info: { fieldName: string }) => `${info.fieldName} for ${context.user}`,
    children: id < 3 ? [item(id * 10), item(id * 10 + 1)] : [],
    maybeChildren: id < 3 ? [item(id * 10 + 2), null] : null,
  };
}

function testSchema(): GraphQLSchema {
  const schema = buildSchema(SDL);
  const resolvers: Record<string, Record<string, GraphQLFieldResolver<Record<string, unknown>, Context>>> = {
    Query: {
      item: (_source, args) => (Number(args.id) === 404 ? null : item(Number(args.id))),
      items: (_source, args) => Array.from({ length: args.first as number }, (_, index) => (index % 2 ? Promise.resolve(item(index + 1)) : item(index + 1))),
      nullableItems: () => [item(1), null, item(2)],
      promisedItems: async () => [item(5), Promise.resolve(item(6))],
      delayed: () => new Promise((resolve) => setTimeout(() => resolve(item(7)), 2)),
      thing: () => ({ ...item(8), __typename: 'Item' }),
      named: () => ({ ...PERSON, __typename: 'Person' }),
      // Changes its arguments: the next request must not see the change.
      counted: (_source, args) => {
        const step = args.step as { by: number };
        const seen = JSON.stringify({ ...args, nullPrototype: Object.getPrototypeOf(step) === null });
        step.by += 1;
        (args.tags as string[]).push('changed');
        if (args.extra) (args.extra as { labels: string[] }).labels.push('changed');
        return seen;
      },
      numbers: () => new Set([1, 2, 3]),
      notIterable: () => 5,
      badInt: () => 'not a number',
      badNonNull: () => null,
    },
    Item: {
      label: (source, args) => (args.upper ? String(source.name).toUpperCase() : `${args.prefix ?? ''}${source.name}`),
      owner: async () => PERSON,
      boom: () => {
        throw new Error('boom');
      },
      asyncBoom: async () => {
        throw new Error('async boom');
      },
      nonNullBoom: (source) => (source.id === 2 || source.id === 20 ? null : 'fine'),
    },
    Mutation: { touch: () => 1 },
  };
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName) as GraphQLObjectType;
    for (const [name, resolve] of Object.entries(fields)) {
      // Every call is recorded, so both executors must call the same resolvers with the same path and arguments.
      type.getFields()[name].resolve = (source, args, context: Context, info) => {
        const typenames: Array<string | undefined> = [];
        for (let path: GraphQLResolveInfo['path'] | undefined = info.path; path; path = path.prev) typenames.push(path.typename);
        const seen = `${info.fieldName} ${info.parentType} ${info.returnType} ${info.fieldNodes.length} ${info.operation.name?.value} ${Object.keys(info.fragments)}`;
        context.calls.push({ field: `${typeName}.${name}`, path: responsePathAsArray(info.path), typenames, args: { ...args }, info: seen });
        return resolve(source, args, context, info);
      };
    }
  }
  return schema;
}

const schema = testSchema();

/** The answer as JSON, with own keys only (an own `__proto__` key included). */
function asJson(value: unknown): Record<string, unknown> | null {
  return JSON.parse(JSON.stringify(value ?? null)) as Record<string, unknown> | null;
}

async function run(useExecutor: boolean, query: string, variableValues?: Record<string, unknown>, operationName?: string) {
  const document = parse(query);
  const context: Context = { calls: [], user: 'u1' };
  const args = { schema, document, variableValues, operationName, contextValue: context };
  const result: ExecutionResult = await (useExecutor ? new Executor().execute(args, getOperationAST(document, operationName)) : execute(args));
  const errors = result.errors?.map((error) => ({ message: error.message, path: error.path, locations: error.locations }));
  return { data: asJson(result.data), json: JSON.stringify(result.data), hasData: 'data' in result, errors, calls: context.calls };
}

async function expectSame(query: string, variables?: Record<string, unknown>, operationName?: string) {
  const expected = await run(false, query, variables, operationName);
  const actual = await run(true, query, variables, operationName);
  expect(actual).to.deep.equal(expected);
  return actual;
}

function plans(query: string): boolean {
  const document = parse(query);
  return planOperation(schema, document, getOperationAST(document)!) !== undefined;
}

describe('GraphQL executor: planned queries answer as graphql-js', () => {
  const planned: Array<[string, string, Record<string, unknown>?, string?]> = [
    ['scalars, lists, arguments with defaults', '{ items { id name price tags label label2: label(upper: true) } }'],
    ['aliases, merged fields and named fragments', '{ a: items(first: 1) { id } b: items(first: 3) { id name } items { ...F id } } fragment F on Item { name owner { name ...P } } fragment P on Person { friends { name } }'],
    ['inline fragments on the object type, an interface and none', '{ items { ... on Named { name } ... on Item { id } ... { price } } }'],
    ['variables, given and left out', 'query Q($up: Boolean, $n: Int) { items(first: $n) { label(upper: $up, prefix: "x") } }', { up: true, n: 3 }],
    ['a variable of an argument left unset', 'query Q($n: Int) { items(first: $n) { id } }', {}],
    ['errors in nullable fields, thrown and rejected', '{ items(first: 3) { id boom asyncBoom } }'],
    ['a null in a non-null field nulls the nearest nullable parent', '{ nullableItems { id nonNullBoom } }'],
    ['a null in a non-null list of non-null items nulls data', '{ items(first: 3) { id nonNullBoom } }'],
    ['nested non-null lists', '{ item(id: "1") { children { id nonNullBoom } maybeChildren { id nonNullBoom } } }'],
    ['a method on the source is called with args, context and info', '{ items { method } }'],
    ['iterables, a non-iterable list and a value the scalar refuses', '{ numbers notIterable badInt }'],
    ['a non-null root field that is null', '{ items { id } badNonNull { id } }'],
    ['promises at every level', '{ delayed { id owner { name friends { name } } } promisedItems { id children { id } } }'],
    ['__typename everywhere', '{ __typename items { __typename id owner { __typename } } }'],
    ['aliases named like Object.prototype members stay ordinary keys', '{ __proto__: items { id } constructor: items(first: 1) { toString: name } hasOwnProperty: item(id: "3") { id } }'],
    ['an absent entry', '{ item(id: "404") { id } }'],
    ['a missing required variable: no data at all', 'query Q($id: ID!) { item(id: $id) { id } }', {}],
    ['a variable of the wrong type', 'query Q($n: Int) { items(first: $n) { id } }', { n: 'many' }],
    ['the operation the name selects', 'query A { items { id } } query B { item(id: "2") { name } }', {}, 'B'],
  ];
  for (const [title, query, variables, operationName] of planned) {
    it(title, async () => {
      const document = parse(query);
      expect(planOperation(schema, document, getOperationAST(document, operationName)!), 'planned').to.not.equal(undefined);
      await expectSame(query, variables, operationName);
    });
  }

  it('reports the errors it must', async () => {
    const result = await expectSame('{ nullableItems { id nonNullBoom } items(first: 3) { id boom } }');
    expect(result.data!.nullableItems).to.deep.equal([{ id: '1', nonNullBoom: 'fine' }, null, null]);
    // A promised item settles last: its error comes after its siblings', as in graphql-js.
    expect(result.errors!.map((error) => `${error.message} @ ${error.path!.join('.')}`)).to.deep.equal([
      'Cannot return null for non-nullable field Item.nonNullBoom. @ nullableItems.2.nonNullBoom',
      'boom @ items.0.boom',
      'boom @ items.2.boom',
      'boom @ items.1.boom',
    ]);
  });
});

describe('GraphQL executor: arguments written in the document', () => {
  it('are coerced as graphql-js coerces them, and a resolver changing them changes nothing for the next request', async () => {
    const executor = new Executor();
    for (const query of ['{ counted }', '{ counted(step: { by: 5, labels: ["a"] }, extra: { labels: ["b"] }, tags: ["x", "y"], any: { a: [1, { b: 2 }] }) }']) {
      const document = parse(query);
      const answers: string[] = [];
      for (let request = 0; request < 3; request += 1) {
        const result = await executor.execute({ schema, document, contextValue: { calls: [], user: 'u' } }, getOperationAST(document));
        answers.push(JSON.stringify(result));
      }
      // graphql-js shares default values between requests (a change to one leaks): a fresh schema per run keeps them clean.
      const expected = JSON.stringify(await execute({ schema: testSchema(), document, contextValue: { calls: [], user: 'u' } }));
      expect(answers).to.deep.equal([expected, expected, expected]);
    }
  });
});

describe('GraphQL executor: resolvers that read only their parent', () => {
  it('are called with the parent alone until something wraps them, then as any resolver', async () => {
    const local = testSchema();
    const name = (local.getType('Person') as GraphQLObjectType).getFields().name;
    const seen: unknown[] = [];
    name.resolve = sourceOnly((person: { name: string }) => {
      seen.push(person.name);
      return person.name.toUpperCase();
    });
    const executor = new Executor();
    const document = parse('{ delayed { owner { name } } }');
    const run = async () => JSON.stringify((await executor.execute({ schema: local, document, contextValue: { calls: [], user: 'u' } }, getOperationAST(document))).data);
    expect(await run()).to.equal('{"delayed":{"owner":{"name":"ADA"}}}');
    expect(seen).to.deep.equal(['Ada']);
    // resolversConfig wraps after the plan was made: the wrapper gets graphql-js's arguments.
    const inner = name.resolve;
    name.resolve = (source, args, context, info) => `${info.parentType.name}.${info.fieldName} ${String(inner(source as never, args, context, info))}`;
    expect(await run()).to.equal('{"delayed":{"owner":{"name":"Person.name ADA"}}}');
  });
});

describe('GraphQL executor: what it leaves to graphql-js answers the same', () => {
  const unplanned: Array<[string, string]> = [
    ['directives', '{ items { id name @include(if: false) tags @skip(if: true) } }'],
    ['a union', '{ thing { __typename ... on Item { id } } }'],
    ['an interface', '{ named { name ... on Person { friends { name } } } }'],
    ['introspection', '{ __schema { queryType { name } } __type(name: "Item") { name } }'],
    ['a mutation', 'mutation { touch }'],
  ];
  for (const [title, query] of unplanned) {
    it(title, async () => {
      expect(plans(query), 'planned').to.equal(false);
      await expectSame(query);
    });
  }

  it('several operations without a name', async () => {
    const query = 'query A { items { id } } query B { items { name } }';
    const document = parse(query);
    expect(getOperationAST(document)).to.equal(null);
    await expectSame(query);
  });
});
