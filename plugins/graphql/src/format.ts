/**
 * `strapi.plugin('graphql').service('format')`: what Strapi v4's custom
 * resolvers use to return entries in the generated response types.
 * The generated `<Type>Entity` resolves from a plain entry, so these only
 * wrap: `{ data }`, and `{ data, meta: { pagination } }` for lists.
 */
import type { KernelContext } from '@tessera/core';
import type { FormatOptions, GraphqlFormat } from './helper-contract';

export function formatService(_context: KernelContext): GraphqlFormat {
  return {
    returnTypes: {
      toEntityResponse(value: unknown, _options: FormatOptions = {}) {
        return { data: value ?? null };
      },
      toEntityResponseNull() {
        return { data: null };
      },
      toEntityResponseCollection(nodes: unknown[], options: FormatOptions = {}) {
        const total = nodes.length;
        const pagination = options.args?.pagination ?? {};
        const pageSize = pagination.pageSize ?? pagination.limit ?? Math.max(total, 1);
        const page = pagination.page ?? (pagination.start !== undefined ? Math.floor(pagination.start / pageSize) + 1 : 1);
        return { data: nodes, meta: { pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } } };
      },
    },
  };
}
