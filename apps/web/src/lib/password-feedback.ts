import { useEffect, useState } from 'react';
import { passwordProblem, type PasswordContext } from '@wren/contracts';

/** What the password field says before anything is typed. */
export const PASSWORD_HINT = 'At least 10 characters. A few unrelated words work well; no symbols needed.';

let common: Promise<Set<string>> | undefined;

/**
 * The common-password list (the same one the server checks, from @zxcvbn-ts/language-common),
 * loaded once in its own chunk when a password field is first used.
 */
function loadCommon(): Promise<Set<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common'].map((p) => String(p).toLowerCase())),
  );
  return common;
}

/**
 * Why the password would be refused (too short, too common, repetitive, holds the username or the
 * email), as the user types; null when it is fine or empty. Until the list has loaded only the
 * other rules apply.
 */
export function usePasswordProblem(password: string, context: PasswordContext = {}): string | null {
  const [list, setList] = useState<Set<string> | null>(null);
  useEffect(() => {
    if (!password || list) return;
    let live = true;
    loadCommon().then(
      (set) => live && setList(set),
      () => undefined, // offline: the server still checks
    );
    return () => {
      live = false;
    };
  }, [password, list]);
  if (!password) return null;
  return passwordProblem(password, context, list ? (p) => list.has(p) : undefined);
}
