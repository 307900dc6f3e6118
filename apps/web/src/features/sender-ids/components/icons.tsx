import { iconOfSize } from '@/components/icons';

export { IconPlus, IconTrash } from '@/components/icons';

const icon = iconOfSize(18);

export const IconStar = icon(
  'M12 17.75l-6.17 3.25 1.18-6.88-5-4.87 6.9-1L12 2l3.09 6.25 6.9 1-5 4.87 1.18 6.88z',
);
export const IconInfo = icon('M12 3a9 9 0 1 0 0 18a9 9 0 0 0 0-18z', 'M12 8h.01', 'M11 12h1v4h1');
