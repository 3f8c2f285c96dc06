/**
 * `strapi.admin.services.user`, `.role` and `.token` for plugin code, typed:
 * the shapes of `@strapi/admin` 4.26.2's services that published plugins
 * call (what an admin is, its roles, its session token). The kernel only
 * holds the slot; the admin plugin (plugins/admin) fills it at register with
 * its real services over Strapi's admin tables. Without the admin panel
 * (no `@strapi/admin`), or for a method Tessera does not serve, the call
 * throws an error naming the method, never a silent `undefined`.
 */
import { ConfigurationError } from '@tessera/errors';

/** An admin user row (Strapi's `admin::user`), with `roles` when asked for. */
export type AdminUserEntity = Record<string, unknown> & { id: number };
/** An admin role row (Strapi's `admin::role`). */
export type AdminRoleEntity = Record<string, unknown> & { id: number };

export interface AdminUserService {
  /** Whether a user matching `attributes` exists (any user when none are given). */
  exists(attributes?: Record<string, unknown>): Promise<boolean>;
  /** The user with `id` (its roles populated, as Strapi's default populate), or null. */
  findOne(id: number | string, populate?: unknown): Promise<AdminUserEntity | null>;
  findOneByEmail(email: string, populate?: unknown): Promise<AdminUserEntity | null>;
  count(where?: Record<string, unknown>): Promise<number>;
  /** Active users (Strapi counts them for its seats). */
  getCurrentActiveUserCount(): Promise<number>;
  /** The user without password and tokens, its roles reduced to id, name, description and code. */
  sanitizeUser(user: AdminUserEntity): Record<string, unknown>;
  /** Whether `id` is the only Super Admin. */
  isLastSuperAdminUser(id: number | string): Promise<boolean>;
  /** Strapi's CLI reset: a new password for the user of that email (refused when it does not exist). */
  resetPasswordByEmail(email: string, password: string): Promise<void>;
}

export interface AdminRoleService {
  find(params?: { where?: Record<string, unknown> } & Record<string, unknown>): Promise<AdminRoleEntity[]>;
  findOne(where?: Record<string, unknown>): Promise<AdminRoleEntity | null>;
  findAllWithUsersCount(): Promise<Array<AdminRoleEntity & { usersCount: number }>>;
  exists(where?: Record<string, unknown>): Promise<boolean>;
  count(where?: Record<string, unknown>): Promise<number>;
  getUsersCount(roleId: number | string): Promise<number>;
  getSuperAdmin(): Promise<AdminRoleEntity | null>;
  getSuperAdminWithUsersCount(): Promise<(AdminRoleEntity & { usersCount: number }) | null>;
  /** Refuses (Strapi's validation error) when one of the roles is the Super Admin's or still has users. */
  checkRolesIdForDeletion(ids: Array<number | string>): Promise<void>;
}

export interface AdminTokenService {
  /** A random opaque token (hex), as Strapi makes registration and reset tokens. */
  createToken(): string;
  /** An admin session JWT for the user, signed with `admin.auth.secret`. */
  createJwtToken(user: { id: number }): string;
  /** `{ payload: { id }, isValid: true }` for a valid session token, `{ payload: null, isValid: false }` otherwise. */
  decodeJwtToken(token: string): { payload: { id: number } | null; isValid: boolean };
  getTokenOptions(): { secret: string; options: Record<string, unknown> };
  checkSecretIsDefined(): void;
}

export interface AdminPluginServices {
  user: AdminUserService;
  role: AdminRoleService;
  token: AdminTokenService;
}

/** Strapi's methods of these services that Tessera does not serve: calling one throws naming it. */
const NOT_SERVED: Record<keyof AdminPluginServices, string[]> = {
  user: ['create', 'update', 'register', 'findRegistrationInfo', 'findPage', 'deleteById', 'deleteByIds', 'countUsersWithoutRole', 'assignARoleToAll', 'displayWarningIfUsersDontHaveRole', 'getLanguagesInUse'],
  role: ['create', 'update', 'deleteByIds', 'createRolesIfNoneExist', 'assignPermissions', 'addPermissions', 'resetSuperAdminPermissions', 'displayWarningIfNoSuperAdmin', 'hasSuperAdminRole', 'findOneWithUsersCount', 'sanitizeRole'],
  token: [],
};

function refusing(service: string, method: string, why: string): () => never {
  return () => {
    throw new ConfigurationError(`strapi.admin.services.${service}.${method}() ${why}`);
  };
}

/** What `strapi.admin.services` holds besides `permission`: each service, once the admin plugin has provided it. */
export class AdminServiceSlots {
  #services: AdminPluginServices = absentServices();
  #provided = false;

  provide(services: AdminPluginServices): void {
    if (this.#provided) throw new ConfigurationError('admin: the admin services are provided twice');
    for (const name of Object.keys(NOT_SERVED) as Array<keyof AdminPluginServices>) {
      for (const method of NOT_SERVED[name]) {
        if (!(method in services[name])) Object.defineProperty(services[name], method, { value: refusing(name, method, 'is not served by Tessera (docs/extending.md, "The admin side")') });
      }
    }
    this.#services = services;
    this.#provided = true;
  }

  get provided(): boolean {
    return this.#provided;
  }

  get<K extends keyof AdminPluginServices>(name: K): AdminPluginServices[K] {
    return this.#services[name];
  }
}

/** Without the admin panel: every method throws, saying so. */
function absentServices(): AdminPluginServices {
  const why = 'needs the admin panel: add @strapi/admin to the app (npm install @strapi/admin@4.26.2)';
  const user = (method: string) => refusing('user', method, why);
  const role = (method: string) => refusing('role', method, why);
  const token = (method: string) => refusing('token', method, why);
  const services: AdminPluginServices = {
    user: {
      exists: user('exists'),
      findOne: user('findOne'),
      findOneByEmail: user('findOneByEmail'),
      count: user('count'),
      getCurrentActiveUserCount: user('getCurrentActiveUserCount'),
      sanitizeUser: user('sanitizeUser'),
      isLastSuperAdminUser: user('isLastSuperAdminUser'),
      resetPasswordByEmail: user('resetPasswordByEmail'),
    },
    role: {
      find: role('find'),
      findOne: role('findOne'),
      findAllWithUsersCount: role('findAllWithUsersCount'),
      exists: role('exists'),
      count: role('count'),
      getUsersCount: role('getUsersCount'),
      getSuperAdmin: role('getSuperAdmin'),
      getSuperAdminWithUsersCount: role('getSuperAdminWithUsersCount'),
      checkRolesIdForDeletion: role('checkRolesIdForDeletion'),
    },
    token: {
      createToken: token('createToken'),
      createJwtToken: token('createJwtToken'),
      decodeJwtToken: token('decodeJwtToken'),
      getTokenOptions: token('getTokenOptions'),
      checkSecretIsDefined: token('checkSecretIsDefined'),
    },
  };
  for (const name of Object.keys(NOT_SERVED) as Array<keyof AdminPluginServices>) {
    for (const method of NOT_SERVED[name]) Object.defineProperty(services[name], method, { value: refusing(name, method, why) });
  }
  return services;
}
