import { createHash, createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { isAccountRole } from '@wren/contracts';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { nowMs, systemClock, type Clock } from '../../platform/clock';
import type { AccessClaims } from '../../platform/http/principals';

export const ISSUER = 'wren';
export const AUDIENCE = 'wren-web';
export const ACCESS_TYP = 'at+jwt';
const VERIFIED_CACHE_SIZE = 10_000;

export type { AccessClaims };

export interface TokenSigner {
  sign(claims: AccessClaims): Promise<string>;
  /** Verifies signature, alg, typ, iss and aud; `allowExpired` is for the refresh call only. */
  verify(token: string, opts?: { allowExpired?: boolean }): Promise<AccessClaims | null>;
}

export function createTokenSigner(
  secret: string,
  ttlSeconds: number,
  maxAgeForRefreshSeconds: number,
  /** Issue and expiry times come from this clock, and tokens are checked against it. */
  clock: Clock = systemClock,
): TokenSigner {
  // A KeyObject made once: jose would import a raw byte key again on every sign and verify.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const verified = new Map<string, { claims: AccessClaims; until: number }>();
  return {
    sign: (c) => {
      const iat = Math.floor(nowMs(clock) / 1000);
      return new SignJWT({ aid: c.accountId, sid: c.sessionId, role: c.role, arl: c.accountRole })
        .setProtectedHeader({ alg: 'HS256', typ: ACCESS_TYP })
        .setSubject(c.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds)
        .sign(key);
    },
    verify: async (token, opts = {}) => {
      // A token verified before gives the same answer until it expires: skip the HMAC on hot paths.
      const hit = opts.allowExpired ? undefined : verified.get(token);
      if (hit && hit.until > nowMs(clock)) return hit.claims;
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          typ: ACCESS_TYP,
          requiredClaims: ['sub', 'exp', 'iat'],
          clockTolerance: opts.allowExpired ? maxAgeForRefreshSeconds : 5,
          currentDate: clock.now(),
        });
        const { sub, aid, sid, role, arl } = payload;
        if (typeof sub !== 'string' || typeof aid !== 'string' || typeof sid !== 'string') return null;
        if (role !== 'user' && role !== 'admin') return null;
        // The member's role in the account (issue 39); a token without one is from before roles.
        if (!isAccountRole(arl)) return null;
        const claims: AccessClaims = { userId: sub, accountId: aid, sessionId: sid, role, accountRole: arl };
        if (!opts.allowExpired && typeof payload.exp === 'number') {
          if (verified.size >= VERIFIED_CACHE_SIZE) verified.clear();
          verified.set(token, { claims, until: payload.exp * 1000 });
        }
        return claims;
      } catch (err) {
        if (err instanceof joseErrors.JOSEError) return null;
        throw err;
      }
    },
  };
}

/** An opaque random secret for refresh and reset tokens. Only its hash is stored. */
export const randomToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The refresh token that replaces `token` when it is rotated: HMAC(secret, token), so rotating
 * the same token again (a second tab within the grace window) yields the same successor instead
 * of forking the family. Only its hash is stored, like every refresh token.
 */
export const successorToken = (secret: string, token: string) =>
  createHmac('sha256', secret).update(`wren refresh successor\0${token}`).digest('base64url');
