import type { SenderIdDto } from '@wren/contracts';
import { translate } from '@/lib/i18n';

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
 * `platformSender` is this server's shared sender (DEFAULT_SENDER); until it is known, none is
 * offered and a send names no sender (the server then uses the account's default or its own).
 */
export function senderChoices(
  senderIds: SenderIdDto[] | undefined,
  platformSender: string | undefined,
): SenderChoices {
  const approved = (senderIds ?? []).filter((s) => s.status === 'approved');
  const pending = (senderIds ?? []).filter((s) => s.status === 'requested');
  const accountDefault = approved.find((s) => s.isDefault);
  const defaultValue = accountDefault?.value ?? platformSender ?? '';
  const options: SenderOption[] = approved.map((s) => ({
    value: s.value,
    label: s.isDefault ? translate('{{sender}} (default)', { sender: s.value }) : s.value,
  }));
  if (
    !accountDefault &&
    platformSender &&
    !approved.some((s) => s.value.toLowerCase() === platformSender.toLowerCase())
  ) {
    options.unshift({
      value: platformSender,
      label: translate('{{sender}} (default)', { sender: platformSender }),
    });
  }
  for (const s of pending)
    options.push({
      value: s.value,
      label: translate('{{sender}} (awaiting approval)', { sender: s.value }),
      disabled: true,
    });
  return { options, defaultValue };
}
