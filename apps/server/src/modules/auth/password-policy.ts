import { passwordProblem, type PasswordContext } from '@wren/contracts';
import { dictionary } from '@zxcvbn-ts/language-common';
import { FieldError } from '../../platform/errors';

/**
 * The common-password list of zxcvbn-ts (@zxcvbn-ts/language-common, MIT; about 49,000 passwords
 * from leaked-password frequency lists), held in memory as a set of lower-case strings.
 */
let common: Set<string> | undefined;
const isCommon = (lower: string) => {
  common ??= new Set(dictionary['passwords-common'].map((p) => String(p).toLowerCase()));
  return common.has(lower);
};

/** Throws a 400 on `field` when the password is common, repetitive or holds the username/email. */
export function assertPasswordAllowed(field: string, password: string, context: PasswordContext): void {
  const problem = passwordProblem(password, context, isCommon);
  if (problem) throw new FieldError({ [field]: [problem] });
}
