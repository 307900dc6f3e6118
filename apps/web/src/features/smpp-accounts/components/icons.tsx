import { iconOfSize } from '@/components/icons';

const icon = iconOfSize(18);

export const IconPlus = icon('M12 5v14', 'M5 12h14');
export const IconPlug = icon('M9 7V3', 'M15 7V3', 'M6 7h12v4a6 6 0 0 1-12 0z', 'M12 17v4');
export const IconRotate = icon('M20 11A8 8 0 1 0 18 16', 'M20 4v7h-7');
export const IconBan = icon('M12 3a9 9 0 1 0 0 18a9 9 0 0 0 0-18z', 'M5.7 5.7l12.6 12.6');
export const IconCheck = icon('M5 12l5 5L20 7');
export const IconTrash = icon('M4 7h16', 'M10 11v6', 'M14 11v6', 'M6 7l1 13h10l1-13', 'M9 7V4h6v3');
