/**
 * `strapi.admin.services.permission`: the typed registry of admin permission
 * actions and conditions, as `@strapi/admin` 4.26.2's action and condition
 * providers keep them. Plugins (Tessera's and published ones) register in
 * `register` or `bootstrap`; the admin plugin (plugins/admin), when the app has
 * it, reads them to sync the roles' permissions at boot, answer the role
 * editor and decide what an admin may do. Without it they are kept, unread.
 *
 * An action's id is Strapi's: `admin::<uid>` for the admin's own,
 * `plugin::<plugin>.<uid>`, else `api::<uid>`; `subCategory` only in the
 * `settings` and `plugins` sections (`general` by default);
 * `options.applyToProperties` null unless given. The content manager's
 * explorer actions are there from the start (Strapi's content manager
 * registers them; plugins edit them: strapi-plugin-soft-delete renames
 * `explorer.delete`); their subjects are filled in by the admin plugin once
 * the content types are known.
 */
import { ConfigurationError } from '@tessera/errors';
import { AdminServiceSlots, type AdminPluginServices, type AdminRoleService, type AdminTokenService, type AdminUserService } from './admin-services';

export interface AdminActionDefinition {
  uid: string;
  displayName: string;
  section: 'contentTypes' | 'plugins' | 'settings' | 'internal' | string;
  pluginName?: string;
  category?: string;
  subCategory?: string;
  subjects?: string[];
  options?: { applyToProperties?: string[] | null };
  aliases?: Array<{ actionId: string; subjects?: string[] }>;
  /** Strapi code sets its own id on rare occasions (soft-delete): kept. */
  actionId?: string;
  [key: string]: unknown;
}

/** A registered action: the definition the plugin passed (Strapi hands back that object), completed. */
export interface AdminAction extends AdminActionDefinition {
  actionId: string;
  options: { applyToProperties: string[] | null };
}

export interface AdminConditionDefinition {
  name: string;
  displayName: string;
  plugin?: string;
  category?: string;
  handler(user: AdminConditionUser, options?: unknown): boolean | Record<string, unknown> | Promise<boolean | Record<string, unknown>>;
  [key: string]: unknown;
}

/** What a condition handler sees of the signed-in admin: the user with its roles. */
export interface AdminConditionUser {
  id: number;
  roles: ReadonlyArray<{ id: number; code?: unknown }>;
  [key: string]: unknown;
}

export interface AdminCondition extends AdminConditionDefinition {
  id: string;
  category: string;
}

/** Does a property (`fields`, `locales`) apply to an action on a subject? Registered by plugins (i18n: `locales` on localized types only). */
export type PropertyToSubjectRule = (input: { property: string; action: AdminAction; subject: string }) => boolean | Promise<boolean>;

/** Strapi's action id of a registered action. */
export function actionIdOf(definition: { uid: string; pluginName?: string; actionId?: unknown }): string {
  if (typeof definition.actionId === 'string') return definition.actionId;
  if (definition.pluginName === 'admin') return `admin::${definition.uid}`;
  return definition.pluginName ? `plugin::${definition.pluginName}.${definition.uid}` : `api::${definition.uid}`;
}

/** Strapi's condition id. */
export function conditionIdOf(definition: { name: string; plugin?: string }): string {
  if (definition.plugin === 'admin') return `admin::${definition.name}`;
  return definition.plugin ? `plugin::${definition.plugin}.${definition.name}` : `api::${definition.name}`;
}

/** The content manager's entry actions, which Strapi registers itself. */
function contentManagerActions(): AdminActionDefinition[] {
  const withFields = { applyToProperties: ['fields'] };
  return [
    { section: 'contentTypes', displayName: 'Create', uid: 'explorer.create', pluginName: 'content-manager', options: withFields },
    { section: 'contentTypes', displayName: 'Read', uid: 'explorer.read', pluginName: 'content-manager', options: withFields },
    { section: 'contentTypes', displayName: 'Update', uid: 'explorer.update', pluginName: 'content-manager', options: withFields },
    { section: 'contentTypes', displayName: 'Delete', uid: 'explorer.delete', pluginName: 'content-manager' },
    { section: 'contentTypes', displayName: 'Publish', uid: 'explorer.publish', pluginName: 'content-manager' },
    { section: 'plugins', displayName: 'Configure view', uid: 'single-types.configure-view', subCategory: 'single types', pluginName: 'content-manager' },
    { section: 'plugins', displayName: 'Configure view', uid: 'collection-types.configure-view', subCategory: 'collection types', pluginName: 'content-manager' },
    { section: 'plugins', displayName: 'Configure Layout', uid: 'components.configure-layout', subCategory: 'components', pluginName: 'content-manager' },
  ];
}

export class AdminActionProvider {
  readonly #actions = new Map<string, AdminAction>();
  readonly #rules: PropertyToSubjectRule[] = [];
  /** Strapi's provider hooks plugins register on (i18n's `appliesPropertyToSubject`). */
  readonly hooks = {
    appliesPropertyToSubject: { register: (rule: PropertyToSubjectRule) => void this.#rules.push(rule) },
  };

  /** Registers one action; the object passed is completed and kept (Strapi's providers hand it back). */
  register(definition: AdminActionDefinition): this {
    if (typeof definition?.uid !== 'string' || typeof definition.displayName !== 'string' || typeof definition.section !== 'string') {
      throw new ConfigurationError('admin: a permission action needs a uid, a displayName and a section');
    }
    const actionId = actionIdOf(definition);
    if (this.#actions.has(actionId)) throw new ConfigurationError(`admin: the permission action "${actionId}" is registered twice`);
    const action = definition as AdminAction;
    action.actionId = actionId;
    if (action.section === 'settings' || action.section === 'plugins') action.subCategory = action.subCategory ?? 'general';
    else delete action.subCategory;
    action.options = { ...(action.options ?? {}), applyToProperties: action.options?.applyToProperties ?? null };
    this.#actions.set(actionId, action);
    return this;
  }

  async registerMany(definitions: AdminActionDefinition[]): Promise<this> {
    for (const definition of definitions ?? []) this.register(definition);
    return this;
  }

  /** By action id (`plugin::upload.read`), or by uid as Strapi code sometimes asks. */
  get(id: string): AdminAction | undefined {
    return this.#actions.get(id) ?? [...this.#actions.values()].find((action) => action.uid === id);
  }

  has(id: string): boolean {
    return this.#actions.has(id);
  }

  values(): AdminAction[] {
    return [...this.#actions.values()];
  }

  keys(): string[] {
    return [...this.#actions.keys()];
  }

  /** Strapi's `appliesToProperty(property, actionId, subject)`: the action lists it, and every rule agrees for the subject. */
  async appliesToProperty(property: string, actionId: string, subject?: string | null): Promise<boolean> {
    const action = this.get(actionId);
    if (!action?.options.applyToProperties?.includes(property)) return false;
    if (subject === undefined || subject === null) return true;
    for (const rule of this.#rules) if (!(await rule({ property, action, subject }))) return false;
    return true;
  }
}

export class AdminConditionProvider {
  readonly #conditions = new Map<string, AdminCondition>();

  register(definition: AdminConditionDefinition): this {
    if (typeof definition?.name !== 'string' || typeof definition.displayName !== 'string' || typeof definition.handler !== 'function') {
      throw new ConfigurationError('admin: a permission condition needs a name, a displayName and a handler function');
    }
    const id = conditionIdOf(definition);
    if (this.#conditions.has(id)) throw new ConfigurationError(`admin: the permission condition "${id}" is registered twice`);
    const condition = definition as AdminCondition;
    condition.id = id;
    condition.category = definition.category ?? 'default';
    this.#conditions.set(id, condition);
    return this;
  }

  async registerMany(definitions: AdminConditionDefinition[]): Promise<this> {
    for (const definition of definitions ?? []) this.register(definition);
    return this;
  }

  get(id: string): AdminCondition | undefined {
    return this.#conditions.get(id);
  }

  has(id: string): boolean {
    return this.#conditions.has(id);
  }

  values(): AdminCondition[] {
    return [...this.#conditions.values()];
  }
}

export interface AdminSurface {
  services: {
    permission: { actionProvider: AdminActionProvider; conditionProvider: AdminConditionProvider };
    readonly user: AdminUserService;
    readonly role: AdminRoleService;
    readonly token: AdminTokenService;
  };
  /** The admin plugin hands its user, role and token services here at register (admin-services.ts). */
  provideServices(services: AdminPluginServices): void;
  /** What is registered: the same objects the providers hold. */
  readonly registered: { readonly actions: AdminAction[]; readonly conditions: AdminCondition[] };
}

export function createAdminSurface(): AdminSurface {
  const actionProvider = new AdminActionProvider();
  const conditionProvider = new AdminConditionProvider();
  const slots = new AdminServiceSlots();
  for (const action of contentManagerActions()) actionProvider.register(action);
  return {
    services: {
      permission: { actionProvider, conditionProvider },
      get user() {
        return slots.get('user');
      },
      get role() {
        return slots.get('role');
      },
      get token() {
        return slots.get('token');
      },
    },
    provideServices: (services) => slots.provide(services),
    get registered() {
      return { actions: actionProvider.values(), conditions: conditionProvider.values() };
    },
  };
}
