import {
  API_SCOPES,
  ErrorCode,
  PERMISSIONS,
  roleCan,
  type ApiScope,
  type PermissionDeclaration,
} from '@wren/contracts';
import type { FastifyInstance, HTTPMethods, RouteOptions } from 'fastify';
import { AppError } from '../errors';
import type { AuthGuard } from './auth-guard';

/**
 * Who may call a route. `user` (a signed-in user with an active session) is the default: a route
 * is protected unless it says otherwise. `public` needs no token; `admin` needs the admin role;
 * `apikey` needs an API key (`Bearer wren_live_…`) with the route's `scope` (the /v1 API).
 */
export const ROUTE_ACCESS = ['public', 'user', 'admin', 'apikey'] as const;
export type RouteAccess = (typeof ROUTE_ACCESS)[number];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; leave it out for a signed-in user (see platform/http/route-auth.ts). */
    auth?: RouteAccess;
    /**
     * The API-key scope the route needs: required with `auth: 'apikey'`; on a `user` route it
     * lets an API key with this scope call the route too (besides a signed-in user).
     */
    scope?: ApiScope;
    /**
     * What a `user` route needs of the member's role in the token's account (contracts'
     * ROLE_PERMISSIONS), or `self` for what every member may do (their profile, signing out).
     * Required on every user route: one without it stops the server at start (issue 39).
     */
    permission?: PermissionDeclaration;
  }
}

/** Route config for a user route that needs `permission` (see FastifyContextConfig.permission). */
export const can = (permission: PermissionDeclaration) => ({ permission }) as const;
/** Route config for what every member of the account may do for themselves. */
export const SELF = { permission: 'self' } as const;

/** The 403 for a member whose role lacks a route's (or hub method's) permission. */
export const permissionDenied = (permission: string) =>
  new AppError(
    ErrorCode.PERMISSION_DENIED,
    `Your role in this account does not allow this (it needs "${permission}"). Ask an owner or admin.`,
  );

const isDeclaration = (p: unknown): p is PermissionDeclaration =>
  p === 'self' || (PERMISSIONS as readonly string[]).includes(p as string);

/** Route config that opts a route out of authentication. Use it only where no token can exist yet. */
export const PUBLIC = { auth: 'public' } as const satisfies { auth: RouteAccess };
/** Route config for admin-only routes. */
export const ADMIN = { auth: 'admin' } as const satisfies { auth: RouteAccess };
/** Route config for a /v1 route: an API key with `scope`. */
export const apiKey = (scope: ApiScope) => ({ auth: 'apikey', scope }) as const;

export interface RouteEntry {
  method: HTTPMethods;
  url: string;
  access: RouteAccess;
  /** The API-key scope of a /v1 route (or of a user route that also takes keys). */
  scope?: ApiScope;
  /** The permission a user route needs of the member's role (issue 39). */
  permission?: PermissionDeclaration;
  /** Status codes with a declared response schema. */
  responses: string[];
  /** The declared request schemas (zod), for tests that generate input (the fuzz suite). */
  schemas: { body?: unknown; querystring?: unknown; params?: unknown };
}

const tables = new WeakMap<FastifyInstance, RouteOptions[]>();

/**
 * Authentication by scope, closed by default: one onRequest hook on the root instance covers every
 * route of every plugin, registered before or after, under /api or anywhere else. A route is public
 * only with `config: PUBLIC`; an unknown `auth` value stops the server at start. Call it before any
 * route is added. The check runs in preParsing: after the onRequest hooks (the XSRF check), before
 * the body is read or validated, so an anonymous caller learns nothing about a route's input.
 */
export function registerRouteAuth(app: FastifyInstance, guard: AuthGuard) {
  const routes: RouteOptions[] = [];
  tables.set(app, routes);
  app.addHook('onRoute', (route) => {
    const access = route.config?.auth;
    if (access !== undefined && !(ROUTE_ACCESS as readonly string[]).includes(access)) {
      throw new Error(`${String(route.method)} ${route.url}: unknown auth "${String(access)}"`);
    }
    const scope = route.config?.scope;
    if (scope !== undefined && !(API_SCOPES as readonly string[]).includes(scope)) {
      throw new Error(`${String(route.method)} ${route.url}: unknown API scope "${String(scope)}"`);
    }
    if (access === 'apikey' && scope === undefined) {
      throw new Error(`${String(route.method)} ${route.url}: an apikey route must name its scope`);
    }
    if (scope !== undefined && access !== 'apikey' && (access ?? 'user') !== 'user') {
      throw new Error(`${String(route.method)} ${route.url}: only user routes may also take API keys`);
    }
    const permission = route.config?.permission;
    if (permission !== undefined && !isDeclaration(permission)) {
      throw new Error(`${String(route.method)} ${route.url}: unknown permission "${String(permission)}"`);
    }
    routes.push(route);
  });
  // Closed by default: a user route that declares no permission stops the server at start. Checked
  // when ready, after every plugin's own onRoute hooks (which may set a route's config) have run.
  app.addHook('onReady', async () => {
    const missing = routes
      .filter((r) => (r.config?.auth ?? 'user') === 'user' && !isDeclaration(r.config?.permission))
      .flatMap((r) => (Array.isArray(r.method) ? r.method : [r.method]).map((m) => `${m} ${r.url}`))
      .filter((k) => !k.startsWith('HEAD '));
    if (missing.length) {
      throw new Error(
        `user routes without config.permission (platform/http/route-auth.ts): ${missing.join(', ')}`,
      );
    }
  });
  app.addHook('preParsing', async (req, reply) => {
    if (req.is404) return; // no route: the not-found handler answers
    const access = req.routeOptions.config.auth ?? 'user';
    if (access === 'public') return;
    const scope = req.routeOptions.config.scope;
    if (access === 'apikey' || (scope !== undefined && guard.hasApiKey(req))) {
      await guard.requireApiKey(req, reply, scope);
    } else if (access === 'admin') await guard.requireAdmin(req);
    else {
      await guard.requireUser(req);
      // The one permission check of user routes: the member's role for the token's account.
      const permission = req.routeOptions.config.permission;
      if (!isDeclaration(permission) || !roleCan(req.auth?.accountRole, permission)) {
        throw permissionDenied(String(permission ?? 'a declared permission'));
      }
    }
  });
}

/** Every route of the app with its access and declared responses (for tests and the API docs). */
export function routeTable(app: FastifyInstance): RouteEntry[] {
  const routes = tables.get(app);
  if (!routes) throw new Error('registerRouteAuth was not called on this app');
  return routes.flatMap((r) =>
    (Array.isArray(r.method) ? r.method : [r.method]).map((method) => ({
      method,
      url: r.url,
      // Read now: a plugin's own onRoute hook may set the access after ours ran.
      access: r.config?.auth ?? 'user',
      scope: r.config?.scope,
      permission: r.config?.permission,
      responses: Object.keys((r.schema?.response as Record<string, unknown> | undefined) ?? {}),
      schemas: { body: r.schema?.body, querystring: r.schema?.querystring, params: r.schema?.params },
    })),
  );
}
