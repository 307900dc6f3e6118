import { iconOfSize } from '@/components/icons';

export { IconPlus, IconTrash, IconPencil, IconSearch } from '@/components/icons';

const icon = iconOfSize(18);

export const IconAlert = icon(
  'M12 9v4',
  'M12 16h.01',
  'M10.24 3.96L1.82 18.02A2 2 0 0 0 3.52 21h16.96a2 2 0 0 0 1.7-2.98L13.76 3.96a2 2 0 0 0-3.42 0z',
);
export const IconUpload = icon('M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2', 'M7 9l5-5 5 5', 'M12 4v12');
export const IconDownload = icon('M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2', 'M7 11l5 5 5-5', 'M12 4v12');
export const IconFile = icon(
  'M14 3v4a1 1 0 0 0 1 1h4',
  'M17 21H7a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h7l5 5v11a2 2 0 0 1-2 2z',
  'M9 13h6',
  'M9 17h6',
);
export const IconCheck = icon('M5 12l5 5L20 7');
export const IconArrowLeft = icon('M5 12h14', 'M5 12l6 6', 'M5 12l6-6');
