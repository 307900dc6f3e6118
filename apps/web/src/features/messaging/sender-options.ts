import type { SenderIdDto } from '@wren/contracts';

/** The platform's sender, used when an account has no approved sender ID of its own. */
export const PLATFORM_SENDER = 'Wren';

export interface SenderOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SenderChoices {
  options: SenderOption[];
  /** The sender a send uses when none is named (preselected). */
  defaultValue: string;
}

/**
 * The senders a user can pick: approved sender IDs (the account default marked), or the platform
 * sender when none is the default. Requested ones are listed but cannot be picked yet.
 */
export function senderChoices(senderIds: SenderIdDto[] | undefined): SenderChoices {
  const approved = (senderIds ?? []).filter((s) => s.status === 'approved');
  const pending = (senderIds ?? []).filter((s) => s.status === 'requested');
  const accountDefault = approved.find((s) => s.isDefault);
  const defaultValue = accountDefault?.value ?? PLATFORM_SENDER;
  const options: SenderOption[] = approved.map((s) => ({
    value: s.value,
    label: s.isDefault ? `${s.value} (default)` : s.value,
  }));
  if (!accountDefault && !approved.some((s) => s.value.toLowerCase() === PLATFORM_SENDER.toLowerCase())) {
    options.unshift({ value: PLATFORM_SENDER, label: `${PLATFORM_SENDER} (default)` });
  }
  for (const s of pending)
    options.push({ value: s.value, label: `${s.value} (awaiting approval)`, disabled: true });
  return { options, defaultValue };
}
