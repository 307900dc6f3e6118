import { createHmac } from 'node:crypto';
import { ErrorCode } from '@wren/contracts';
import { createChallenge, randomInt, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { verify } from 'altcha-lib/frameworks/shared';
import { nowMs, type Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';

/** A challenge must be solved and used within this time. */
const CHALLENGE_TTL_MS = 10 * 60_000;
const MAX_REMEMBERED = 100_000;

export interface Captcha {
  enabled: boolean;
  /** A fresh signed challenge for the widget. */
  challenge(): Promise<Challenge>;
  /** Throws a 400 unless `payload` solves an unexpired challenge of ours, used for the first time. */
  check(payload: string | undefined): Promise<void>;
}

/**
 * Self-hosted proof-of-work bot protection (ALTCHA, altcha-lib): no third party, invisible to people,
 * CPU for a bot. Challenges are HMAC-signed with keys derived from the server secret, so any node
 * can check them; a solved challenge is accepted once (a replay store on this node, kept for the
 * challenge lifetime). Off (CAPTCHA=false) it accepts everything, for tests.
 */
export function createCaptcha(opts: {
  enabled: boolean;
  secret: string;
  cost: number;
  clock: Clock;
}): Captcha {
  const derive = (label: string) =>
    createHmac('sha256', opts.secret).update(`wren altcha ${label}`).digest('hex');
  const signatureSecret = derive('signature');
  const keySecret = derive('key');
  const used = new Map<string, number>();
  const store = {
    get: (id: string) => used.has(id),
    set: (id: string) => void used.set(id, nowMs(opts.clock) + CHALLENGE_TTL_MS),
    setIfAbsent: (id: string) => {
      const now = nowMs(opts.clock);
      if (used.size >= MAX_REMEMBERED) for (const [k, until] of used) if (until <= now) used.delete(k);
      if (used.has(id)) return false;
      used.set(id, now + CHALLENGE_TTL_MS);
      return true;
    },
  };
  const refused = () =>
    new AppError(
      ErrorCode.VALIDATION,
      'The automatic check that you are not a robot did not pass; try again',
    );
  return {
    enabled: opts.enabled,
    challenge: () =>
      createChallenge({
        algorithm: 'PBKDF2/SHA-256',
        cost: opts.cost,
        counter: randomInt(1_000, 5_000),
        deriveKey,
        hmacSignatureSecret: signatureSecret,
        hmacKeySignatureSecret: keySecret,
        expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
      }),
    async check(payload) {
      if (!opts.enabled) return;
      if (!payload || payload.length > 10_000) throw refused();
      const result = await verify(payload, deriveKey, signatureSecret, keySecret, store);
      if (result.error || !result.verification?.verified) throw refused();
    },
  };
}
