import { iconOfSize } from '@/components/icons';

const icon = iconOfSize(18);

export const IconPlus = icon('M12 5v14', 'M5 12h14');
export const IconCopy = icon('M8 8h12v12H8z', 'M16 8V4H4v12h4');
export const IconKey = icon('M15 7a3 3 0 1 1 0 .01', 'M3 21l8.5-8.5', 'M14.5 9.5L10 14', 'M7 17l2 2');
export const IconRotate = icon('M20 11A8 8 0 1 0 18 16', 'M20 4v7h-7');
export const IconBan = icon('M12 3a9 9 0 1 0 0 18a9 9 0 0 0 0-18z', 'M5.7 5.7l12.6 12.6');
export const IconPencil = icon('M4 20h4L18.5 9.5a2.83 2.83 0 0 0-4-4L4 16v4', 'M13.5 6.5l4 4');
export const IconChart = icon('M3 3v18h18', 'M7 15l4-4 3 3 5-6');
export const IconReplay = icon('M4 4v6h6', 'M4 10a8 8 0 1 1 2 6');
export const IconAlert = icon(
  'M12 9v4',
  'M12 17h.01',
  'M10.3 3.9L2.4 18a2 2 0 0 0 1.7 3h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z',
);
