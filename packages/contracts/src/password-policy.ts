/**
 * Password policy after NIST SP 800-63B §3.1.1.2: a minimum length, no composition rules, and a
 * check against passwords that are common, repetitive or taken from the account itself. The list
 * of common passwords is passed in (the server holds it in memory; the web app loads it lazily),
 * so this module stays small and shared.
 */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;

export interface PasswordContext {
  username?: string;
  email?: string;
}

/** Fewer distinct characters than this ("aaaaaaaaa1", ten spaces and "a1") is too repetitive. */
const MIN_DISTINCT = 4;
/** A common password with up to this many digits or symbols added ("password12") is still common. */
const MAX_DECORATION = 4;

const letters = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Why `password` is not allowed, or null when it is. `isCommon` answers for a lower-case string
 * (omit it to skip the list, e.g. while the web app is still loading it).
 */
export function passwordProblem(
  password: string,
  context: PasswordContext = {},
  isCommon?: (lowerCase: string) => boolean,
): string | null {
  if (Array.from(password).length < PASSWORD_MIN_LENGTH) {
    return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  }
  if (new Set(Array.from(password.toLowerCase())).size < MIN_DISTINCT) {
    return 'This password repeats too few characters; choose a longer mix or a few unrelated words';
  }
  const compact = letters(password);
  for (const own of [context.username, context.email?.split('@')[0]]) {
    const o = letters(own ?? '');
    if (o.length >= 3 && (compact === o || (o.length >= 4 && compact.includes(o)))) {
      return 'The password must not contain your username or email address';
    }
  }
  if (isCommon) {
    const lower = password.toLowerCase();
    const trimmed = lower.trim();
    const base = trimmed.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
    if (
      isCommon(lower) ||
      isCommon(trimmed) ||
      isCommon(compact) ||
      (base.length >= 4 && trimmed.length - base.length <= MAX_DECORATION && isCommon(base))
    ) {
      return 'This password is too common; choose something harder to guess, such as a few unrelated words';
    }
  }
  return null;
}
