/**
 * What users-permissions offers other plugins and apps: its services' types,
 * in the kernel's typed service map
 * (`app.plugin('users-permissions')!.service('user')`).
 */
import type { ActionSet } from '@tessera/core';
import type { AuthService } from './services/auth';
import type { EmailService } from './services/email';
import type { JwtService } from './services/jwt';
import type { RoleService } from './services/role';
import type { UserService } from './services/user';

/** `service('users-permissions')`: the roles' abilities, cached, and the cache's reset. */
export interface PermissionsService {
  invalidate(): void;
  roleAbility(roleId: number): Promise<ActionSet>;
  publicAbility(): Promise<ActionSet>;
}

export interface UsersPermissionsServices {
  jwt: Pick<JwtService, 'issue' | 'verify' | 'getToken'>;
  user: UserService;
  role: RoleService;
  auth: AuthService;
  'users-permissions': PermissionsService;
  email: Pick<EmailService, 'send'>;
}

declare module '@tessera/core' {
  interface PluginServices {
    'users-permissions': UsersPermissionsServices;
  }
}
