/**
 * The components a builder save carries beside its type or component (`components: [...]`), as Strapi 4.26.2's
 * content-type builder takes them: each is a new component named by a `tmpUID` (the panel's "create a new
 * component" inside a field) or an existing one named by its `uid` (edited in the panel while the type was open).
 * Every `tmpUID` is mapped to its uid first (Strapi's `createNewComponentUIDMap`), so the saved schema and the other
 * nested components may name each other; then each is created or edited in order, after the schema of the save.
 */
import type { App } from '@tessera/core';
import { Collector, isObject, typeError, validationBody, yupPath, type Obj } from './attribute-checks';
import { addComponent, checkComponentFields, componentInput, componentUid, withComponentUids, type ComponentInput } from './components';
import { editComponentIn } from './component-edits';
import type { Workspace } from './workspace';

/** A component sent along with a save: new (`tmpUID`) or existing and edited (`uid`). */
export type NestedComponent = ComponentInput & ({ tmpUID: string; uid?: undefined } | { uid: string; tmpUID?: undefined });

export type CheckedNestedComponents = { ok: true; components: NestedComponent[] } | { ok: false; body: unknown };

/**
 * Strapi's `nestedComponentSchema`: a list of component bodies, each with exactly one of `uid` and `tmpUID`, every
 * refusal answered at once in Strapi's validation envelope, its path starting at the item (`components[0]`).
 */
export function checkNestedComponents(app: App, components: unknown): CheckedNestedComponents {
  if (components === undefined || components === null) return { ok: true, components: [] };
  const errors = new Collector();
  if (!Array.isArray(components)) errors.add(['components'], typeError('components', 'array', components));
  const items = Array.isArray(components) ? components : [];
  const checked: NestedComponent[] = [];
  for (const [index, item] of items.entries()) {
    const at = ['components', String(index)];
    if (!isObject(item)) {
      errors.add(at, typeError(yupPath(at), 'object', item));
      continue;
    }
    const { uid, tmpUID, ...component } = item;
    for (const [key, value] of Object.entries({ uid, tmpUID })) {
      if (value !== undefined && typeof value !== 'string') errors.add([...at, key], typeError(yupPath([...at, key]), 'string', value));
    }
    checkComponentFields(app, errors, at, component);
    if ((uid === undefined) === (tmpUID === undefined)) errors.add(at, 'Component must have a uid or a tmpUID');
    else if (typeof uid === 'string') checked.push({ ...componentInput(component), uid });
    else if (typeof tmpUID === 'string') checked.push({ ...componentInput(component), tmpUID });
  }
  return errors.errors.length > 0 ? { ok: false, body: validationBody(errors.errors) } : { ok: true, components: checked };
}

/** Each new component's uid by its `tmpUID`. */
export function nestedComponentUids(components: readonly NestedComponent[]): Map<string, string> {
  return new Map(components.flatMap((component) => (component.tmpUID === undefined ? [] : [[component.tmpUID, componentUid(component)] as const])));
}

/**
 * Creates or edits each nested component in the workspace, in order. With `typeUid`, a relation of theirs to
 * `__contentType__` points at that type (the panel's placeholder for the type being saved).
 */
export function applyNestedComponents(app: App, workspace: Workspace, components: readonly NestedComponent[], uids: Map<string, string>, typeUid?: string): void {
  for (const component of components) {
    const attributes = typeUid === undefined ? component.attributes : withTypeTargets(component.attributes, typeUid);
    const input = withComponentUids(app, { ...component, attributes }, uids);
    if (component.uid === undefined) addComponent(app, workspace, input);
    else editComponentIn(app, workspace, component.uid, input);
  }
}

function withTypeTargets(attributes: Record<string, Obj>, typeUid: string): Record<string, Obj> {
  return Object.fromEntries(Object.entries(attributes).map(([key, attribute]) => [key, attribute.target === '__contentType__' ? { ...attribute, target: typeUid } : attribute]));
}
