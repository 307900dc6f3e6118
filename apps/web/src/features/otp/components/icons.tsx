import { iconOfSize } from '@/components/icons';

const icon = iconOfSize(16);

export const IconPlus = icon('M12 5v14', 'M5 12h14');
export const IconTrash = icon(
  'M4 7h16',
  'M10 11v6',
  'M14 11v6',
  'M5 7l1 12a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2l1-12',
  'M9 7V4h6v3',
);
export const IconPencil = icon('M4 20h4L18.5 9.5a2.83 2.83 0 0 0-4-4L4 16v4', 'M13.5 6.5l4 4');
export const IconFlask = icon(
  'M9 3h6',
  'M10 3v6L4.5 18.5A1.7 1.7 0 0 0 6 21h12a1.7 1.7 0 0 0 1.5-2.5L14 9V3',
  'M7 15h10',
);
export const IconBook = icon(
  'M4 19.5A2.5 2.5 0 0 1 6.5 17H20V3H6.5A2.5 2.5 0 0 0 4 5.5z',
  'M4 19.5A2.5 2.5 0 0 0 6.5 22H20v-5',
);
export const IconShield = icon('M12 3l8 4v5c0 5-3.5 8.5-8 9-4.5-.5-8-4-8-9V7z', 'M9 12l2 2 4-4');
export const IconCopy = icon('M8 8h12v12H8z', 'M16 8V4H4v12h4');
