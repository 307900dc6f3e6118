import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** What a registration confirmation link carries until the address owner follows it. */
export interface PendingRegistration {
  username: string;
  name: string;
  email: string;
  phone: string;
  passwordHash: string;
  /** Epoch ms after which the link is refused. */
  exp: number;
}

const key = (secret: string) => createHmac('sha256', secret).update('wren registration link').digest();

/**
 * Seals a pending registration into the confirmation link (AES-256-GCM with a key derived from
 * the server secret): nothing is stored until the link is followed, and the link can be neither
 * read (it holds the password hash) nor altered.
 */
export function sealRegistration(secret: string, p: PendingRegistration): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(secret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(p), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The sealed registration, or null when the link is forged, altered or expired at `now`. */
export function openRegistration(secret: string, token: string, now: number): PendingRegistration | null {
  try {
    const raw = Buffer.from(token, 'base64url');
    if (raw.length < 29) return null;
    const decipher = createDecipheriv('aes-256-gcm', key(secret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const p = JSON.parse(
      Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8'),
    ) as PendingRegistration;
    return typeof p.exp === 'number' && p.exp > now ? p : null;
  } catch {
    return null;
  }
}
