import { iconOfSize } from '@/components/icons';

export { IconPlus, IconTrash, IconPencil, IconSearch } from '@/components/icons';

const icon = iconOfSize(18);

export const IconAlert = icon(
  'M12 9v4',
  'M12 16h.01',
  'M10.24 3.96L1.82 18.02A2 2 0 0 0 3.52 21h16.96a2 2 0 0 0 1.7-2.98L13.76 3.96a2 2 0 0 0-3.42 0z',
);
