import { useState } from 'react';
import type { SendWindow } from '@wren/contracts';
import { DEFAULT_SEND_WINDOW, type SendWindowMode } from '../components/send-window-fields';
import { useSendWindowSettings } from './send-window-settings';

/**
 * A campaign's send-window choice in the composer: the account's default (sent as nothing: the
 * server applies the default as it is then), its own window, or any hour (null).
 */
export function useSendWindowChoice() {
  const settings = useSendWindowSettings();
  const [mode, setMode] = useState<SendWindowMode>('account');
  const [window, setWindow] = useState<SendWindow>(DEFAULT_SEND_WINDOW);
  const value: SendWindow | null | undefined =
    mode === 'account' ? undefined : mode === 'none' ? null : window;
  return { mode, setMode, window, setWindow, value, accountDefault: settings.data?.window };
}

export type SendWindowChoice = ReturnType<typeof useSendWindowChoice>;
