/**
 * The caller: who a request (or server code) acts as, built once per request from the authenticated state
 * (`AuthState`, what the strategy answered and Strapi's `ctx.state.auth` keeps) and taken by the gate and the
 * operations. Transport-free: it knows the kind of credential, what it may do, whose it is and what a
 * permission limits (conditions, fields); never how it arrived.
 *
 *   authenticate (auth/authenticate.ts) → AuthState on ctx.state.auth → Caller.of(state) → gate → operation
 *
 * `Caller.server` is trusted server code (bootstrap, services called without a caller, the entity service):
 * every action, every type the content API can reach, drafts when it asks.
 *
 * The decision (auth/authorize.ts's rules, which Strapi's strategies define) lives here so that every transport,
 * the gate and the operations ask the same object; the strategy may still have its own rule for a scope
 * (API tokens' read-only and custom types), asked through the state it answered.
 */
import { ForbiddenError } from '@tessera/errors';
import type { AuthState, CallerKind } from '../types';
import { allowEverything } from './abilities';

/** The kinds of caller: no credential, an end user (users-permissions' JWT), an API token, an admin user, trusted server code. */
export type { CallerKind };

/** What a route or resolver asks of its caller (authorize.ts decides it). */
export type AuthRequirement = false | { scope?: readonly string[] } | undefined;

/**
 * Why a caller is refused: it is no caller at all (`unauthenticated`, 401),
 * it is anonymous where any credential is needed (`credential-required`,
 * 401), or it lacks the action (`forbidden`, 403).
 */
export type Refusal = 'unauthenticated' | 'credential-required' | 'forbidden';

/**
 * What one granted action carries beyond yes: the conditions it holds under and the fields it reaches
 * (Strapi's RBAC permissions, for the admin's callers to come). Empty for every caller today: the content API's
 * roles and tokens grant whole actions.
 */
export interface Grant {
  readonly conditions: readonly string[];
  /** The fields the action reaches; undefined for every field. */
  readonly fields?: readonly string[];
}

const WHOLE_ACTION: Grant = Object.freeze({ conditions: Object.freeze([]) });

/** The state server code runs with where an `AuthState` is still asked for (Strapi code reading `auth.strategy.name`). */
const SERVER_STATE: AuthState = Object.freeze({ strategy: Object.freeze({ name: 'server' }), credentials: null, ability: allowEverything });

/** One caller per authenticated state: a request builds its caller once, whatever asks for it (route, resolvers, operations). */
const built = new WeakMap<AuthState, Caller>();

export class Caller {
  /** Trusted server code. */
  static readonly server = new Caller(SERVER_STATE, 'server');

  static {
    // Server code's state handed back (an overridden service passing `auth` on) is server code again.
    built.set(SERVER_STATE, Caller.server);
  }

  /** The caller of an authenticated state, built on first ask and kept with it. */
  static of(state: AuthState): Caller {
    let caller = built.get(state);
    if (!caller) {
      caller = new Caller(state, kindOf(state));
      built.set(state, caller);
    }
    return caller;
  }

  /**
   * The caller of a request whose route authenticated it (`ctx.state`, where the route put Strapi's `auth`). Without
   * one the request came some other way (a hand-mounted middleware): refused, never treated as trusted server code.
   */
  static ofRequest(state: { auth?: AuthState }): Caller {
    if (!state.auth) throw new ForbiddenError();
    return Caller.of(state.auth);
  }

  private constructor(
    /** The state it was built from: what Strapi's `ctx.state.auth` holds and strategy-specific code reads. */
    readonly state: AuthState,
    readonly kind: CallerKind,
  ) {}

  /** The strategy that recognised it (`public`, `api-token`, `users-permissions`, `admin`, `server`, a plugin's). */
  get strategyName(): string {
    return this.state.strategy.name;
  }

  /** The id of the user behind it (an end user or an admin); undefined for public, tokens and server code. */
  get userId(): number | string | undefined {
    const id = this.state.user?.id ?? (this.kind === 'user' || this.kind === 'admin' ? this.state.credentials?.id : undefined);
    return typeof id === 'number' || typeof id === 'string' ? id : undefined;
  }

  /** An API token's type (`read-only`, `full-access`, `custom`); undefined for other callers. */
  get tokenType(): string | undefined {
    const type = this.kind === 'api-token' ? this.state.credentials?.type : undefined;
    return typeof type === 'string' ? type : undefined;
  }

  /**
   * What the plan cache keys a read scope by: callers of one role or one token type share the object their
   * actions came from, so their scopes are computed once.
   */
  get actionSource(): object {
    return this.state.ability;
  }

  /** Is this a caller at all? An anonymous one whose public role grants nothing is not (Strapi answers it 401). */
  get isCaller(): boolean {
    return !(this.kind === 'public' && this.state.ability.isEmpty?.() === true);
  }

  /**
   * The decision on a route's or resolver's requirement: undefined when it may pass. `ownAction` is the route's
   * or generated resolver's action, asked for when the requirement names no scope.
   */
  refusal(requirement: AuthRequirement, ownAction?: string): Refusal | undefined {
    if (requirement === false || this.kind === 'server') return undefined;
    if (!this.isCaller) return 'unauthenticated';
    const scope = requirement?.scope ?? (ownAction === undefined ? undefined : [ownAction]);
    if (this.state.strategy.scopeRefusal) return this.state.strategy.scopeRefusal(this.state, scope);
    if (scope === undefined) return this.kind === 'public' ? 'credential-required' : undefined;
    return scope.every((action) => this.state.ability.can(action)) ? undefined : 'forbidden';
  }

  /**
   * One action, yes or no: what an operation asks before it reads through another type, shows drafts, or lets a
   * write touch an entry (populate targets, preview, upload's attach, i18n's localizations, users-permissions' update).
   */
  may(action: string): boolean {
    return this.refusal({ scope: [action] }) === undefined;
  }

  /** What a granted action carries (conditions, fields); undefined when it is not granted. */
  grant(action: string): Grant | undefined {
    return this.may(action) ? WHOLE_ACTION : undefined;
  }

  /** May it read entries of `uid` through another type (populate, filters, links)? Never the kernel's own tables (admin::, strapi::). */
  mayRead(uid: string): boolean {
    if (uid.startsWith('admin::') || uid.startsWith('strapi::')) return false;
    return this.may(`${uid}.find`);
  }

  /** May it read drafts of `uid` (`publicationState=preview`)? Credentials that may `find` it, or anyone when the app says so. */
  mayPreview(uid: string, publicPreview: boolean): boolean {
    return publicPreview || (this.kind !== 'public' && this.may(`${uid}.find`));
  }
}

/** The kind a strategy declares for its callers; `public` without a credential; a plugin's strategy without one is a user's. */
function kindOf(state: AuthState): CallerKind {
  return state.strategy.callerKind ?? (state.strategy.name === 'public' ? 'public' : 'user');
}
