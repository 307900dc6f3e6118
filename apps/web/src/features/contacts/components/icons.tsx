import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement> & { size?: number };

/** Stroke icons of this feature (24 × 24 grid, like components/icons), decorative. */
function icon(...paths: string[]) {
  return function Icon({ size = 18, ...props }: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.75}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        {...props}
      >
        {paths.map((d) => (
          <path key={d} d={d} />
        ))}
      </svg>
    );
  };
}

export const IconPlus = icon('M12 5v14', 'M5 12h14');
export const IconTrash = icon(
  'M4 7h16',
  'M10 11v6',
  'M14 11v6',
  'M5 7l1 12a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2l1-12',
  'M9 7V4a1 1 0 0 1 1-1h4a1 1 0 0 1 1 1v3',
);
export const IconPencil = icon('M4 20h4L18.5 9.5a2.83 2.83 0 0 0-4-4L4 16v4', 'M13.5 6.5l4 4');
export const IconSearch = icon('M10 3a7 7 0 1 0 0 14a7 7 0 0 0 0-14z', 'M21 21l-6-6');
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
