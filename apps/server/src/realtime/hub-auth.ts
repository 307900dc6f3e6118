import { HUB_UNAUTHORIZED } from '@wren/contracts';
import { AppError } from '../platform/errors';
import type { Authenticate } from '../platform/http/auth-guard';
import type { Logger } from '../platform/logger';
import type { HubSocket } from './hub-types';

/**
 * Whether a hub handshake may come from `origin` (its Origin header): no Origin (not a browser),
 * the page's own origin (Origin's host is the Host it connected to), or one of `allowed` (PUBLIC_URL's
 * origin and HUB_ALLOWED_ORIGINS). Anything else, e.g. another site opening a socket with a stolen
 * token, is refused before authentication.
 */
export function hubOriginAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowed: readonly string[],
): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (host && url.host.toLowerCase() === host.toLowerCase()) return true;
  return allowed.includes(url.origin);
}

/** The access token from `auth: { token }`, else the `access_token` query parameter. */
export function handshakeToken(handshake: Pick<HubSocket['handshake'], 'auth' | 'query'>): string | null {
  const fromAuth: unknown = (handshake.auth as Record<string, unknown> | undefined)?.token;
  const fromQuery: unknown = handshake.query.access_token;
  const raw = typeof fromAuth === 'string' && fromAuth ? fromAuth : fromQuery;
  if (typeof raw !== 'string') return null;
  const token = raw.replace(/^Bearer\s+/i, '').trim();
  return token || null;
}

/**
 * Socket.IO middleware: a missing, invalid or expired access token (or an ended session) fails the
 * connect with exactly `Unauthorized`, which the web client answers with one token refresh
 * (SPEC.md §4). An unexpected failure (the database is down) is not reported as Unauthorized, so
 * it does not sign the user out.
 */
export function hubAuth(authenticate: Authenticate, logger: Logger) {
  return (socket: HubSocket, next: (err?: Error) => void) => {
    const token = handshakeToken(socket.handshake);
    if (!token) {
      next(new Error(HUB_UNAUTHORIZED));
      return;
    }
    authenticate(token).then(
      (claims) => {
        socket.data.auth = claims;
        next();
      },
      (err: unknown) => {
        if (err instanceof AppError) {
          next(new Error(HUB_UNAUTHORIZED));
          return;
        }
        logger.error({ err }, 'hub authentication failed');
        next(new Error('Service unavailable'));
      },
    );
  };
}
