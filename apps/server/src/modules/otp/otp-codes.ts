import { createHmac, randomInt } from 'node:crypto';
import { OTP_ALPHABET } from '@wren/contracts';

/** A code from the CSPRNG: digits, or letters and digits without look-alikes. */
export function generateCode(length: number, type: 'numeric' | 'alphanumeric'): string {
  const alphabet = type === 'numeric' ? '0123456789' : OTP_ALPHABET;
  let code = '';
  for (let i = 0; i < length; i++) code += alphabet[randomInt(alphabet.length)];
  return code;
}

/** The HMACs a code is stored and checked as, keyed from the server secret. */
export function codeHashes(jwtSecret: string) {
  // The code key: derived from the server secret, never the secret itself.
  const codeKey = createHmac('sha256', jwtSecret).update('wren otp code hmac v1').digest();
  const hashCode = (verificationId: string, code: string) =>
    createHmac('sha256', codeKey).update(`${verificationId}:${code}`).digest();
  /** The same code bound to the service and number instead (0017): known before the row is found. */
  const hashRecipientCode = (serviceId: string, e164: string, code: string) =>
    createHmac('sha256', codeKey).update(`${serviceId}:${e164}:${code}`).digest();
  return { hashCode, hashRecipientCode };
}

export type CodeHashes = ReturnType<typeof codeHashes>;
