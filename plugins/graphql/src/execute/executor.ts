/**
 * Runs an operation: a query through its plan (made on its first request,
 * kept as long as the endpoint keeps its parsed document), anything the
 * planner leaves out (mutations, directives, unions, introspection) through
 * graphql-js's `execute`.
 */
import { execute, getVariableValues, type ExecutionArgs, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import { planOperation, type OperationPlan } from './operation-plan';
import { PlanRun } from './plan-run';

/** graphql-js's default bound on variable coercion errors. */
const MAX_COERCION_ERRORS = 50;

export class Executor {
  /** Per operation node of a cached document; null: not plannable, run by graphql-js. */
  private readonly plans = new WeakMap<OperationDefinitionNode, OperationPlan | null>();

  /** `operation`: the document's operation `args.operationName` selects, when there is exactly one. */
  execute(args: ExecutionArgs, operation: OperationDefinitionNode | null | undefined): ExecutionResult | Promise<ExecutionResult> {
    // Custom default resolvers are graphql-js's to apply.
    const plannable = operation && !args.fieldResolver && !args.typeResolver;
    const plan = plannable ? this.planOf(args, operation) : undefined;
    if (!plan || !operation) return execute(args);
    // Without variable definitions graphql-js coerces nothing (variables sent anyway are ignored).
    if (!operation.variableDefinitions?.length) return new PlanRun(plan, args.contextValue, {}, args.rootValue).result();
    const coerced = getVariableValues(plan.schema, operation.variableDefinitions, args.variableValues ?? {}, { maxErrors: MAX_COERCION_ERRORS });
    if (coerced.errors) return { errors: coerced.errors };
    return new PlanRun(plan, args.contextValue, coerced.coerced, args.rootValue).result();
  }

  private planOf(args: ExecutionArgs, operation: OperationDefinitionNode): OperationPlan | undefined {
    let plan = this.plans.get(operation);
    if (plan === undefined || (plan !== null && plan.schema !== args.schema)) {
      plan = planOperation(args.schema, args.document, operation) ?? null;
      this.plans.set(operation, plan);
    }
    return plan ?? undefined;
  }
}
