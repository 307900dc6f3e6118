import type { OtpStatus } from '@wren/contracts';

export const formatPercent = (fraction: number) =>
  `${(fraction * 100).toLocaleString('en', { maximumFractionDigits: 1 })}%`;

export const OTP_STATUS_LABEL: Record<OtpStatus, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'blue' },
  approved: { label: 'Approved', color: 'teal' },
  expired: { label: 'Expired', color: 'gray' },
  max_attempts_reached: { label: 'Too many attempts', color: 'grape' },
  canceled: { label: 'Replaced', color: 'gray' },
  blocked: { label: 'Blocked', color: 'red' },
};
