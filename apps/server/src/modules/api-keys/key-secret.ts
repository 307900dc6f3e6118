import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { API_KEY_MARK, API_KEY_PATTERN } from '@wren/contracts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 40;
const PREFIX_LENGTH = 8;

/** A new secret `wren_live_<40 base62>` (~238 bits), its lookup prefix and its hash. */
export function newSecret() {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET[randomInt(ALPHABET.length)];
  const secret = API_KEY_MARK + random;
  return { secret, prefix: prefixOf(secret), hash: hashSecret(secret) };
}

/** The stored lookup prefix: the first 8 random characters. */
export const prefixOf = (secret: string) =>
  secret.slice(API_KEY_MARK.length, API_KEY_MARK.length + PREFIX_LENGTH);

/** How a key is shown: `wren_live_Ab12Cd34`. */
export const displayPrefix = (prefix: string) => `${API_KEY_MARK}${prefix}`;

/** SHA-256: the secret has ~238 random bits, so a fast hash is safe (no guessing to slow down). */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest();

export const looksLikeKey = (token: string) => API_KEY_PATTERN.test(token);

export function sameHash(a: Buffer, b: Buffer) {
  return a.length === b.length && timingSafeEqual(a, b);
}
