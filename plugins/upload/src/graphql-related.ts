/**
 * `UploadFile.related: [GenericMorph]`: the entries a file is linked to
 * (Strapi's polymorphic `related`), each answered as its own type — select
 * them with `... on Article { title }` — through the same loader as REST's
 * `populate=related` (related.ts): types the caller may not `find` are left
 * out, drafts follow the live state, private fields never appear. `null`
 * when nothing readable is linked, as Strapi v4 answered before 4.26 (whose
 * resolver fails with "Missing schema in validateQuery").
 *
 * The files of one GraphQL level are gathered and loaded together: one query
 * for their links and one per related type, whatever the number of files.
 */
import { Caller, type App } from '@tessera/core';
import type { ExtensionConfig, GraphQLContext } from '@tessera/plugin-graphql';
import type { Entity } from '@tessera/database';
import { loadRelated } from './related';

type Related = Entity[] | null;

/** File ids asked for while GraphQL walks one level, and the promise of their answer. */
interface Batch {
  ids: Set<number>;
  done: Promise<Map<number, Related>>;
}

export function relatedField(app: App): ExtensionConfig {
  // Per request: the context object lives as long as the request does.
  const batches = new WeakMap<object, Batch>();
  const load = (context: GraphQLContext, id: number): Promise<Related> => {
    let batch = batches.get(context);
    if (!batch) {
      const ids = new Set<number>();
      // Resolvers of one level run in the same tick: the load waits for all of them.
      const done = Promise.resolve().then(() => {
        batches.delete(context);
        return loadAll(app, [...ids], Caller.of(context.state.auth));
      });
      batch = { ids, done };
      batches.set(context, batch);
    }
    batch.ids.add(id);
    return batch.done.then((answers) => answers.get(id) ?? null);
  };
  return {
    typeDefs: 'extend type UploadFile { related: [GenericMorph] }',
    resolvers: {
      UploadFile: {
        related: async (parent: unknown, _args: unknown, context: GraphQLContext) => {
          const id = (parent as { id?: unknown }).id;
          return typeof id === 'number' ? load(context, id) : null;
        },
      },
    },
  };
}

async function loadAll(app: App, ids: number[], caller: Caller): Promise<Map<number, Related>> {
  const files: Entity[] = ids.map((id) => ({ id }));
  await loadRelated(app, files, caller);
  return new Map(files.map((file) => {
    const related = file.related as Entity[];
    return [file.id, related.length > 0 ? related : null];
  }));
}
