import type { OtpStatus } from '@wren/contracts';
import { currentLocale } from '@/lib/i18n';

/** A share in the app's language: 0.125 → "12.5%" (en-US), "12,5 %" (fr). */
export const formatPercent = (fraction: number) =>
  fraction.toLocaleString(currentLocale(), { style: 'percent', maximumFractionDigits: 1 });

/** The labels are English, shown through `t` (keys of locales/otp). */
export const OTP_STATUS_LABEL: Record<OtpStatus, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'blue' },
  approved: { label: 'Approved', color: 'teal' },
  expired: { label: 'Expired', color: 'gray' },
  max_attempts_reached: { label: 'Too many attempts', color: 'grape' },
  canceled: { label: 'Replaced', color: 'gray' },
  blocked: { label: 'Blocked', color: 'red' },
};
