import { iconOfSize } from '@/components/icons';

const icon = iconOfSize(20);

export const IconWallet = icon(
  'M17 8V5a1 1 0 0 0-1-1H6a2 2 0 0 0 0 4h12a1 1 0 0 1 1 1v3m0 4v3a1 1 0 0 1-1 1H6a2 2 0 0 1-2-2V6',
  'M20 12v4h-4a2 2 0 0 1 0-4h4',
);
export const IconSend = icon(
  'M10 14L21 3',
  'M21 3l-6.5 18a.55.55 0 0 1-1 0L10 14l-7-3.5a.55.55 0 0 1 0-1L21 3',
);
export const IconAlert = icon(
  'M12 9v4',
  'M10.363 3.591L2.257 17.125a1.914 1.914 0 0 0 1.636 2.871h16.214a1.914 1.914 0 0 0 1.636-2.87L13.637 3.59a1.914 1.914 0 0 0-3.274 0z',
  'M12 16h.01',
);
export const IconCheck = icon('M12 3a9 9 0 1 0 0 18a9 9 0 0 0 0-18z', 'M9 12l2 2 4-4');
export const IconMessage = icon(
  'M8 9h8',
  'M8 13h6',
  'M18 4a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3h-5l-5 3v-3H6a3 3 0 0 1-3-3V7a3 3 0 0 1 3-3z',
);
