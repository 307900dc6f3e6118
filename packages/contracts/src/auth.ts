import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from './password-policy';
import { LOCALES } from './locales';
import { safeString, timeZoneField } from './text';

export const usernameSchema = safeString()
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(32, 'Username must be at most 32 characters')
  .regex(/^[a-zA-Z0-9._-]+$/, 'Username may contain only letters, digits, dots, dashes and underscores');

/**
 * NIST SP 800-63B: length, no composition rules. Common, repetitive and own-name passwords are
 * refused by passwordProblem (password-policy.ts): the server checks them against its list, the
 * form as the user types.
 */
export const passwordSchema = safeString()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .refine((p) => p.length < PASSWORD_MIN_LENGTH || p.length > PASSWORD_MAX_LENGTH || !passwordProblem(p), {
    error: (issue) => passwordProblem(String(issue.input)) ?? 'Choose another password',
  });

export const nameSchema = safeString()
  .trim()
  .min(1, 'Name is required')
  .max(100, 'Name must be at most 100 characters');
export const emailSchema = safeString()
  .trim()
  .toLowerCase()
  .min(1, 'Email is required')
  .pipe(z.email('Enter a valid email address'))
  .pipe(z.string().max(254));
export const phoneInputSchema = safeString().trim().min(1, 'Phone is required').max(32, 'Phone is too long');

export const registerSchema = z.object({
  username: usernameSchema,
  name: nameSchema,
  email: emailSchema,
  phone: phoneInputSchema,
  password: passwordSchema,
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** POST /api/auth/register/confirm: the token of the emailed link. */
export const registerConfirmSchema = z.object({
  token: safeString().min(1, 'The link is incomplete').max(4096),
});

export const loginSchema = z.object({
  username: safeString().trim().min(1, 'Username is required').max(254),
  password: safeString().min(1, 'Password is required').max(128),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const refreshSchema = z.object({
  accessToken: safeString().min(1, 'Access token is required').max(4096),
  refreshToken: safeString().min(1, 'Refresh token is required').max(512),
});
export type RefreshInput = z.infer<typeof refreshSchema>;

export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z.object({
  token: safeString().min(1, 'Reset token is required').max(512),
  password: passwordSchema,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

export const changePasswordSchema = z.object({
  currentPassword: safeString().min(1, 'Current password is required').max(128),
  newPassword: passwordSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const userSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  username: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(['user', 'admin']),
  timezone: z.string(),
  locale: z.enum(LOCALES),
  hasPicture: z.boolean(),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const loginResponseSchema = z.object({
  user: userSchema,
  accessToken: z.string(),
  refreshToken: z.string(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const tokenPairSchema = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type TokenPair = z.infer<typeof tokenPairSchema>;

/** A reply that is only a message for the user (e.g. POST /api/auth/forgot-password, 202). */
export const messageReplySchema = z.object({ message: z.string() });

/** GET /api/me/events: the account's recent activity, newest first. */
export const accountEventListSchema = z.object({
  items: z.array(z.object({ id: z.string(), kind: z.string(), message: z.string(), createdAt: z.string() })),
});
export type AccountEventList = z.infer<typeof accountEventListSchema>;

/** A response with no body (204). */
export const noContentSchema = z.undefined();

export const updateProfileSchema = z.object({
  name: nameSchema.optional(),
  email: emailSchema.optional(),
  phone: phoneInputSchema.optional(),
  timezone: timeZoneField().optional(),
  locale: z.enum(LOCALES, { message: 'Choose one of the languages offered' }).optional(),
});
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

/** Profile pictures: type and size limits checked on both sides. */
export const PICTURE_MAX_BYTES = 2 * 1024 * 1024;
export const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
