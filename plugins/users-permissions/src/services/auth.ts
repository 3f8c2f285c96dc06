/**
 * The account flows — login, register, me, change/forgot/reset password,
 * email confirmation — as transport-free functions: the REST controllers and
 * the GraphQL mutations call these. Bodies are checked field by field;
 * answers never tell whether an account exists (login fails the same way,
 * forgot-password and send-email-confirmation always answer the same, and
 * their work happens after the answer so timing tells nothing either).
 */
import type { App, Caller, Entity } from '@tessera/core';
import { signedInUserId } from '../signed-in';
import { providerEnabled } from '../providers';
import { isFilterableText } from '@tessera/database';
import { ApplicationError, ValidationError } from '@tessera/errors';
import type { AdvancedConfig, UsersPermissionsConfig } from '../config';
import { templatedMail } from '../settings/email-templates';
import { USER_UID } from '../content-types';
import { isPlainObject, validateBody, type FieldRule } from '../body-schema';
import { checkNewPassword, hashPassword, spendVerification, verifyPassword } from '../password';
import { passwordChangedAtOf } from '../password-change';
import { registerFields } from '../register-fields';
import { checkUsernameIsNoOtherEmail } from '../username-rule';
import type { EmailService } from './email';
import type { JwtService } from './jwt';
import { digest, isExpired, newCode, newExpiringCode } from './tokens';
import type { UserService } from './user';

export interface AuthResult {
  jwt?: string;
  user: Entity;
}

export interface AuthService {
  login(body: unknown): Promise<AuthResult>;
  register(body: unknown): Promise<AuthResult>;
  me(caller: Caller, params?: Record<string, unknown>): Promise<Entity>;
  changePassword(caller: Caller, body: unknown): Promise<AuthResult>;
  forgotPassword(body: unknown): Promise<{ ok: true }>;
  resetPassword(body: unknown): Promise<AuthResult>;
  /** Confirms the account of a mailed code; returns the user. */
  emailConfirmation(code: unknown): Promise<Entity>;
  sendEmailConfirmation(body: unknown): Promise<{ email: string; sent: true }>;
  /** A new confirmation code for `user` (its digest stored), mailed to them: the user service's `sendConfirmationEmail`. */
  sendConfirmationTo(user: Entity): Promise<void>;
}

export interface AuthDependencies {
  app: App;
  config: () => UsersPermissionsConfig;
  /** The advanced settings as stored (settings/advanced.ts): read on each use, so the panel's changes apply at once. */
  advanced: () => Promise<AdvancedConfig>;
  users: () => UserService;
  jwt: () => JwtService;
  email: () => EmailService;
  /** Runs work after the answer; the plugin awaits pending work on destroy. */
  background: (work: () => Promise<void>) => void;
}


export function createAuthService(deps: AuthDependencies): AuthService {
  const { app } = deps;
  const users = () => app.db.query(USER_UID);
  // The token names the password it was issued under, so a later change of password revokes it (password-change.ts).
  const answer = (user: Entity): AuthResult => ({
    jwt: deps.jwt().issue({ id: user.id }, passwordChangedAtOf(user.passwordChangedAt)),
    user: deps.users().sanitize(user),
  });
  // Which body keys register keeps: computed once, the user type is fixed after boot.
  let registerKeys: Set<string> | undefined;

  const service: AuthService = {
    async login(body) {
      // Strapi's first check: the Email provider is on in the providers' settings (the panel's Providers page).
      if (!(await providerEnabled(app, 'email'))) throw new ApplicationError('This provider is disabled');
      const { identifier, password } = validateBody(body, { fields: [{ name: 'identifier' }, { name: 'password' }] });
      const user = await findLocalUser(identifier);
      if (!user) {
        await spendVerification(password);
        throw new ValidationError('Invalid identifier or password');
      }
      if (!(await verifyPassword(password, user.password))) throw new ValidationError('Invalid identifier or password');
      if ((await deps.advanced()).emailConfirmation && user.confirmed !== true) throw new ApplicationError('Your account email is not confirmed');
      if (user.blocked === true) throw new ApplicationError('Your account has been blocked by an administrator');
      return answer(user);
    },

    async register(body) {
      const config = deps.config();
      const advanced = await deps.advanced();
      if (!advanced.allowRegister) throw new ApplicationError('Register action is currently disabled');
      // Strapi 4.26: keys outside the allowed set are dropped, not refused (register-fields.ts).
      registerKeys ??= new Set(registerFields(app.contentTypes.get(USER_UID).attributes, config.register.allowedFields));
      // Strapi picks the allowed keys off the body (lodash's pick: nothing off an array or a scalar), then validates.
      const given = isPlainObject(body) ? body : {};
      const params = Object.fromEntries(Object.entries(given).filter(([key]) => registerKeys!.has(key)));
      const { username, email, password } = validateBody(params, REGISTER_BODY);
      // Strapi checks the password's rules (the user type's minLength) at create, after the conflict check: so does this.
      const passwordProblem = passwordError(password);
      const confirmation = advanced.emailConfirmation;
      const code = confirmation ? newCode() : null;
      const data: Record<string, unknown> = {
        ...params,
        username,
        email: email.toLowerCase(),
        password: passwordProblem ? null : await hashPassword(password),
        provider: 'local',
        confirmed: !confirmation,
        blocked: false,
        confirmationToken: code === null ? null : digest(code),
      };
      const created = await app.db.transaction(async () => {
        await app.db.lock(['users-permissions:identity']);
        // An identifier no column can hold (NUL, or past the filter's length) names no account: the create refuses it, naming the field.
        const matchable = isFilterableText(username) && isFilterableText(email);
        if (matchable && (await users().count({ where: identityConflicts(username, data.email as string, advanced.uniqueEmail) })) > 0) {
          throw new ApplicationError('Email or Username are already taken');
        }
        // After Strapi's own refusal, so the cases it refuses keep its answer.
        checkUsernameIsNoOtherEmail(username, email);
        if (passwordProblem) throw passwordProblem;
        data.role = await deps.users().defaultRoleId();
        return app.entityService.create(USER_UID, { data, unknownKeys: 'refuse' });
      });
      if (code !== null) {
        deps.background(() => sendConfirmation(created, code));
        return { user: deps.users().sanitize(created) };
      }
      return answer(created);
    },

    me: (caller, params) => deps.users().me(caller, params),

    async changePassword(caller, body) {
      const id = signedInUserId(caller);
      // Strapi 4.26.2 (controllers/auth.js): no user behind the request (an API token) is this 400, before the body is read.
      if (id === undefined) throw new ApplicationError('You must be authenticated to reset your password');
      const { currentPassword, password } = validateBody(body, CHANGE_PASSWORD_BODY);
      const user = await deps.users().findForAuth({ id });
      if (!user || !(await verifyPassword(currentPassword, user.password))) throw new ValidationError('The provided current password is invalid');
      if (currentPassword === password) throw new ValidationError('Your new password must be different than your current password');
      checkNewPassword(password);
      const updated = await users().update({ where: { id }, data: { password: await hashPassword(password) } });
      return answer(updated ?? user);
    },

    async forgotPassword(body) {
      const { email } = validateBody(body, { fields: [{ name: 'email', email: true }], noUnknown: true });
      deps.background(() => sendReset(email.toLowerCase()));
      return { ok: true };
    },

    async resetPassword(body) {
      // Strapi 4.26.2's order: the body's fields, then the pair, then the code, then the password's rules (at the user's update).
      const { code, password, passwordConfirmation } = validateBody(body, RESET_PASSWORD_BODY);
      if (password !== passwordConfirmation) throw new ValidationError('Passwords do not match');
      const user = isExpired(code) ? null : await deps.users().findForAuth({ resetPasswordToken: digest(code) });
      if (!user) throw new ValidationError('Incorrect code provided');
      checkNewPassword(password);
      const updated = await users().update({ where: { id: user.id }, data: { password: await hashPassword(password), resetPasswordToken: null } });
      return answer(updated ?? user);
    },

    async emailConfirmation(code) {
      validateBody({ confirmation: code }, { fields: [{ name: 'confirmation' }] });
      const user = await deps.users().findForAuth({ confirmationToken: digest(code as string) });
      if (!user) throw new ValidationError('Invalid token');
      const updated = await users().update({ where: { id: user.id }, data: { confirmed: true, confirmationToken: null } });
      return deps.users().sanitize(updated ?? user);
    },

    async sendEmailConfirmation(body) {
      const { email } = validateBody(body, { fields: [{ name: 'email', email: true }] });
      deps.background(async () => {
        const user = await deps.users().findForAuth({ email: email.toLowerCase() });
        if (!user || user.confirmed === true || user.blocked === true) return;
        await service.sendConfirmationTo(user);
      });
      return { email, sent: true };
    },

    async sendConfirmationTo(user) {
      const code = newCode();
      await users().update({ where: { id: user.id }, data: { confirmationToken: digest(code) } });
      await sendConfirmation(user, code);
    },
  };

  /**
   * The local account an identifier names. One holding '@' is an email first, then a username: a username
   * equal to someone else's email (possible through /users or an imported database) never takes over that
   * person's email login, whichever row the database would list first.
   */
  async function findLocalUser(identifier: string): Promise<Entity | null> {
    if (identifier.includes('@')) {
      const byEmail = await deps.users().findForAuth({ provider: 'local', email: identifier.toLowerCase() });
      if (byEmail) return byEmail;
    }
    return deps.users().findForAuth({ provider: 'local', username: identifier });
  }

  async function sendReset(email: string): Promise<void> {
    const user = await deps.users().findForAuth({ email });
    if (!user || user.blocked === true) return;
    const advanced = await deps.advanced();
    const code = newExpiringCode(advanced.resetPasswordTokenTtl);
    await users().update({ where: { id: user.id }, data: { resetPasswordToken: digest(code) } });
    // Strapi's variables for the reset-password template (the code goes in as it is: it is hex digits and a dot).
    const USER = deps.users().sanitize(user);
    const mail = await templatedMail(app, 'reset_password', deps.config().email.from, { URL: advanced.resetPasswordUrl, SERVER_URL: serverUrl(), ADMIN_URL: adminUrl(), USER, TOKEN: code }, { USER });
    await deps.email().send({ to: String(user.email), ...mail });
  }

  /** The public address (`server.url`, as in Strapi) when configured; else where this process listens. */
  function serverUrl(): string {
    return app.config.get<string>('server.url', '') || app.url || `http://localhost:${app.config.get('server.port', 1337)}`;
  }

  function adminUrl(): string {
    const admin = app.config.get<string>('admin.url', '/admin');
    return /^https?:\/\//.test(admin) ? admin : `${serverUrl()}${admin.startsWith('/') ? '' : '/'}${admin}`;
  }

  async function sendConfirmation(user: Entity, code: string): Promise<void> {
    const prefix = app.config.get<string>('api.rest.prefix', '/api');
    const USER = deps.users().sanitize(user);
    const data = { URL: `${serverUrl()}${prefix}/auth/email-confirmation`, SERVER_URL: serverUrl(), ADMIN_URL: adminUrl(), USER, CODE: code };
    const mail = await templatedMail(app, 'email_confirmation', deps.config().email.from, data, { USER });
    await deps.email().send({ to: String(user.email), ...mail });
  }

  return service;
}

/**
 * Strapi 4.26's conflict rule for register, but for other users' usernames against the email: the new email may not
 * be an email in use, the new username neither an email nor a username in use. Local accounts only, unless emails
 * are unique; usernames are unique across providers anyway.
 */
function identityConflicts(username: string, email: string, uniqueEmail: boolean): Record<string, unknown> {
  // Strapi 4.26.2 also refuses an email that is someone's username: anyone could squat an address that way.
  // Tessera refuses instead a username that is another address than its account's email (username-rule.ts).
  const names = [{ email }, { username }, { email: username }];
  return uniqueEmail ? { $or: names } : { $or: [{ provider: 'local', $or: names }, { username }] };
}

/** Strapi 4.26.2's yup schemas of these bodies (controllers/validation/auth.js). */
const REGISTER_BODY = { fields: [{ name: 'email', email: true }, { name: 'username' }, { name: 'password' }] satisfies FieldRule[] };
const RESET_PASSWORD_BODY = { fields: [{ name: 'password' }, { name: 'passwordConfirmation' }, { name: 'code' }] satisfies FieldRule[], noUnknown: true };
const CHANGE_PASSWORD_BODY = {
  fields: [{ name: 'password' }, { name: 'passwordConfirmation', sameAs: { field: 'password', message: 'Passwords do not match' } }, { name: 'currentPassword' }] satisfies FieldRule[],
  noUnknown: true,
};


/** The password rules' refusal, or null: kept to be thrown where Strapi's create would. */
function passwordError(password: string): unknown {
  try {
    checkNewPassword(password);
    return null;
  } catch (error) {
    return error;
  }
}
