import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { openSecret, sealSecret } from '../../platform/secret-box';

/**
 * The cryptography of two-factor sign-in (issue 39 item 3): TOTP per RFC 6238 (SHA-1, 6 digits,
 * 30 s, the parameters every authenticator app reads), the secret's encryption at rest, and the
 * recovery codes. The TOTP secret is kept sealed (platform/secret-box.ts).
 */
export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = 'Wren';

const PURPOSE = 'wren two-factor secret v1';

export const encryptSecret = (serverSecret: string, base32: string): string =>
  sealSecret(serverSecret, PURPOSE, base32);

export const decryptSecret = (serverSecret: string, stored: string): string =>
  openSecret(serverSecret, PURPOSE, stored);

const totpOf = (base32: string, label = 'Wren') =>
  new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(base32),
  });

/** A new secret (160 bits, RFC 4226's recommendation) with its otpauth URI and QR code. */
export async function newEnrollment(label: string) {
  const secret = new Secret({ size: 20 }).base32;
  const otpauthUri = totpOf(secret, label).toString();
  const qrDataUrl = await QRCode.toDataURL(otpauthUri, { margin: 1, width: 220 });
  return { secret, otpauthUri, qrDataUrl };
}

/**
 * The time step of `code` if it is valid at `nowMs` (the current step or one either side, for
 * clock drift), else null. The caller refuses a step it has accepted before (replay).
 */
export function matchingStep(base32: string, code: string, nowMs: number): number | null {
  const delta = totpOf(base32).validate({ token: code, timestamp: nowMs, window: 1 });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** The code for `base32` at `nowMs` (tests and the browser spec compute codes with this). */
export const totpCode = (base32: string, nowMs: number) => totpOf(base32).generate({ timestamp: nowMs });

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten (or `count`) recovery codes like `k7m2-x9qp-4tze`: 60 bits each. */
export function newRecoveryCodes(count: number): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(12);
    const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
  });
}

/** A recovery code's stored hash: case, spaces and dashes do not matter. */
export const hashRecoveryCode = (code: string) =>
  createHash('sha256')
    .update(`wren recovery\0${code.toLowerCase().replace(/[\s-]/g, '')}`)
    .digest('hex');
