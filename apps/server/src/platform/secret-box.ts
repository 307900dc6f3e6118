import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets kept at rest (a TOTP secret, a carrier's SMPP password): AES-256-GCM under a key derived
 * (HKDF-SHA256) from the server secret (JWT_SECRET or the data dir's), one key per purpose, so a
 * value sealed for one use never opens as another.
 */
const keyOf = (serverSecret: string, purpose: string) =>
  Buffer.from(hkdfSync('sha256', serverSecret, 'wren', purpose, 32));

export function sealSecret(serverSecret: string, purpose: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(serverSecret, purpose), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** Throws when the value was sealed under another server secret or purpose, or was altered. */
export function openSecret(serverSecret: string, purpose: string, sealed: string): string {
  const raw = Buffer.from(sealed.replace(/^v1\./, ''), 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(serverSecret, purpose), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
