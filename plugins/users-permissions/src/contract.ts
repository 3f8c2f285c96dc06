/**
 * What users-permissions offers other plugins and apps: its services' types,
 * in the kernel's typed service map
 * (`app.plugin('users-permissions')!.service('user')`).
 */
import type { ActionSet, Entity } from '@tessera/core';
import type { PermissionService } from './services/permission';
import type { ProvidersRegistryService, ProvidersService } from './services/providers';
import type { AuthService } from './services/auth';
import type { EmailService } from './services/email';
import type { JwtService } from './services/jwt';
import type { RoleService } from './services/role';
import type { UserService } from './services/user';

/** `service('users-permissions')`: the roles' abilities, cached, and the cache's reset; Strapi's helpers (services/users-permissions.ts). */
export interface PermissionsService {
  invalidate(): void;
  roleAbility(roleId: number): Promise<ActionSet>;
  publicAbility(): Promise<ActionSet>;
  updateUserRole(user: Entity, role: number | string): Promise<void>;
  template(layout: string, data: Record<string, unknown>): string;
}

export interface UsersPermissionsServices {
  jwt: Pick<JwtService, 'issue' | 'verify' | 'getToken'>;
  user: UserService;
  role: RoleService;
  auth: AuthService;
  'users-permissions': PermissionsService;
  permission: PermissionService;
  providers: ProvidersService;
  'providers-registry': ProvidersRegistryService;
  email: Pick<EmailService, 'send'>;
}

declare module '@tessera/core' {
  interface PluginServices {
    'users-permissions': UsersPermissionsServices;
  }
}
