import type { ApiScope } from '@wren/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors';
import type { AccessClaims, ApiKeyPrincipal } from './principals';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AccessClaims | null;
    /** The API key behind a request authenticated by key (null for a session). */
    apiKey: ApiKeyPrincipal | null;
  }
}

export type Authenticate = (accessToken: string) => Promise<AccessClaims>;
/**
 * Checks an API key for a route's scope (and sets the rate-limit headers on the reply); refuses a
 * request that sent none (`secret` undefined) with the key layer's own error.
 */
export type AuthenticateKey = (
  secret: string | undefined,
  req: FastifyRequest,
  reply: FastifyReply,
  scope: ApiScope | undefined,
) => Promise<ApiKeyPrincipal>;

/** How every API key secret begins (a session's access token never does). */
export const API_KEY_PREFIX = 'wren_live_';

/** The `Authorization: Bearer …` token of a request, if any. */
export const bearerOf = (req: FastifyRequest) => {
  const header = req.headers.authorization;
  return (header ? /^Bearer\s+(\S+)$/i.exec(header) : null)?.[1];
};

/** A preHandler that requires a valid bearer access token on an active session. */
export function createAuthGuard(authenticate: Authenticate, authenticateKey: AuthenticateKey) {
  const requireUser = async (req: FastifyRequest) => {
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match?.[1]) throw unauthorized('Please sign in to continue');
    req.auth = await authenticate(match[1]);
  };
  const requireAdmin = async (req: FastifyRequest) => {
    await requireUser(req);
    if (req.auth?.role !== 'admin') throw forbidden();
  };
  /**
   * An API key (`Authorization: Bearer wren_live_…`) with `scope`. The caller acts as the key's
   * account (req.auth names the key's creator, so a route written for sessions works unchanged).
   */
  const requireApiKey = async (req: FastifyRequest, reply: FastifyReply, scope: ApiScope | undefined) => {
    const key = await authenticateKey(bearerOf(req), req, reply, scope);
    req.apiKey = key;
    req.auth = {
      userId: key.userId,
      accountId: key.accountId,
      sessionId: `key:${key.keyId}`,
      role: 'user',
      accountRole: null, // a key acts with its scopes (checked above), never with a member's role
    };
  };
  /** Whether the request carries an API key rather than a session's access token. */
  const hasApiKey = (req: FastifyRequest) => bearerOf(req)?.startsWith(API_KEY_PREFIX) ?? false;
  return { requireUser, requireAdmin, requireApiKey, hasApiKey };
}

export type AuthGuard = ReturnType<typeof createAuthGuard>;

/** The signed-in caller; only call behind the guard. */
export function authOf(req: FastifyRequest): AccessClaims {
  if (!req.auth) throw unauthorized();
  return req.auth;
}

export const clientOf = (req: FastifyRequest) => ({
  ip: req.ip ?? null,
  userAgent: req.headers['user-agent'] ?? null,
});
