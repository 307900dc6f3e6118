import {
  TWO_FACTOR_API,
  type LoginResponse,
  type RecoveryCodes,
  type TwoFactorEnrollment,
  type TwoFactorVerifyInput,
} from '@wren/contracts';
import { http } from '@/lib/http/client';

/** The code step of sign-in (issue 39 item 3); the caller stores the session it returns. */
export async function verifySignIn(input: TwoFactorVerifyInput): Promise<LoginResponse> {
  return (await http.post<LoginResponse>(TWO_FACTOR_API.verify, input)).data;
}

/** Enrollment during sign-in, in an account that requires two-factor. */
export async function startSignInEnrollment(challenge: string): Promise<TwoFactorEnrollment> {
  return (await http.post<TwoFactorEnrollment>(TWO_FACTOR_API.signInEnrollStart, { challenge })).data;
}

export async function confirmSignInEnrollment(input: {
  challenge: string;
  code: string;
}): Promise<LoginResponse & RecoveryCodes> {
  return (await http.post<LoginResponse & RecoveryCodes>(TWO_FACTOR_API.signInEnrollConfirm, input)).data;
}
