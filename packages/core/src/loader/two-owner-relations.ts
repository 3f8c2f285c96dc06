/**
 * A bidirectional relation whose two sides both say `inversedBy` (each naming the other), as
 * `@strapi/template-ecommerce`'s product ↔ category does. Strapi 4.26 boots such a model with a warning
 * ("rename the key inversedBy to mappedBy"): its metadata builder walks the models in order and, for each owner
 * side, creates that side's join table and points the inverse attribute at it, so the side it walks last wins and
 * both sides read and write that side's join table. Tessera gives the model the same meaning by turning the side
 * Strapi walks first into the `mappedBy` side it effectively is.
 */
import type { Attribute, Component, ContentType } from '@tessera/database';

type Relation = Extract<Attribute, { type: 'relation' }>;
type Model = ContentType | Component;

/**
 * Where Strapi's metadata builder meets a model: the core and admin types, then plugin types, then the app's
 * (its `src/api/<api>/content-types/<name>` folders in sorted order: libuv sorts directory listings), then
 * components. Equal ranks keep the registry's order (`index`).
 */
function walkKey(model: Model, index: number): [number, string, string, number] {
  if (!('namespace' in model)) return [3, '', '', index];
  if (model.namespace !== 'api') return [model.uid.startsWith('plugin::') ? 1 : 0, '', '', index];
  const [api, name] = model.uid.slice('api::'.length).split('.');
  return [2, api, name, index];
}

function walkedBefore(a: [number, string, string, number], b: [number, string, string, number]): boolean {
  for (let i = 0; i < a.length; i += 1) {
    // Code-unit order, as the sorted listing gives (`blog` before `blog-post`).
    if (a[i] !== b[i]) return a[i] < b[i];
  }
  return false;
}

/**
 * When `name` of `model` and its inverse both say `inversedBy`: if Strapi walks this side first, it becomes the
 * `mappedBy` side (changed in place) and the warning to log is returned; the other side is left as the owner.
 * Within one model, the attribute declared first is walked first.
 */
export function settleTwoOwners(
  model: Model,
  name: string,
  attribute: Relation,
  target: Model,
  inverseName: string,
  order: ReadonlyMap<string, number>,
): string | undefined {
  const here = walkKey(model, order.get(model.uid) ?? 0);
  const there = walkKey(target, order.get(target.uid) ?? 0);
  const names = Object.keys(model.attributes);
  const first = model.uid === target.uid ? names.indexOf(name) < names.indexOf(inverseName) : walkedBefore(here, there);
  if (!first) return undefined;
  delete attribute.inversedBy;
  attribute.mappedBy = inverseName;
  return `attribute "${name}": both it and "${inverseName}" of ${target.uid} say "inversedBy"; read as mappedBy "${inverseName}", as Strapi 4 does (both sides use ${target.uid}'s join table). Rename "inversedBy" to "mappedBy" here`;
}
