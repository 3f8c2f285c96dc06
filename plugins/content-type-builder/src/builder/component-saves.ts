/**
 * A component's own save in the builder (`POST /components`, `PUT /components/:uid`), as Strapi 4.26.2's
 * components service runs it: the component created or edited, then the components nested in the same save
 * (nested-components.ts), all written together or not at all.
 */
import type { App } from '@tessera/core';
import { addComponent, withComponentUids, type ComponentInput } from './components';
import { editComponentIn } from './component-edits';
import { applyNestedComponents, nestedComponentUids, type NestedComponent } from './nested-components';
import { commit } from './workspace';

export function createComponent(app: App, input: ComponentInput, components: readonly NestedComponent[] = []): string {
  const uids = nestedComponentUids(components);
  return commit(app, (workspace) => {
    const uid = addComponent(app, workspace, withComponentUids(app, input, uids));
    applyNestedComponents(app, workspace, components, uids);
    return uid;
  });
}

export function editComponent(app: App, uid: string, input: ComponentInput, components: readonly NestedComponent[] = []): string {
  const uids = nestedComponentUids(components);
  return commit(app, (workspace) => {
    const newUid = editComponentIn(app, workspace, uid, withComponentUids(app, input, uids));
    applyNestedComponents(app, workspace, components, uids);
    return newUid;
  });
}
