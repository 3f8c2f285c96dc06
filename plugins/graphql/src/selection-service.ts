/**
 * `strapi.plugin('graphql').service('selection')`, a Tessera addition: for a
 * custom resolver answering a generated `<Type>EntityResponse` (or its
 * collection), the content-API `fields` and `populate` its selection set asks
 * for. Passed as `params` to a content-API operation, the answer is loaded in
 * one read with one query per selected link — as shadow CRUD loads its own —
 * and the nested fields resolve from it, with their arguments applied.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { SchemaModel } from './model';
import type { SelectionPlanner } from './resolve/selection';

/** A type, not an interface: it is passed where operations take any `Record<string, unknown>` of parameters. */
export type ReadParams = {
  fields?: string[];
  populate: Record<string, unknown>;
};

export function selectionService(built: () => { model: SchemaModel; planner: SelectionPlanner }) {
  return {
    readParams(uid: string, info: GraphQLResolveInfo): ReadParams {
      const { model, planner } = built();
      const context = { schema: info.schema, fragments: info.fragments, variables: info.variableValues };
      const { plan } = planner.forResponse(info.fieldNodes, model.require(uid), context);
      return { fields: plan.fields, populate: plan.populate };
    },
  };
}

export type SelectionService = ReturnType<typeof selectionService>;
