import type { FastifyRequest } from 'fastify';
import type { AccessClaims } from '../../modules/auth/tokens';
import { forbidden, unauthorized } from '../errors';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AccessClaims | null;
  }
}

export type Authenticate = (accessToken: string) => Promise<AccessClaims>;

/** A preHandler that requires a valid bearer access token on an active session. */
export function createAuthGuard(authenticate: Authenticate) {
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
  return { requireUser, requireAdmin };
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
