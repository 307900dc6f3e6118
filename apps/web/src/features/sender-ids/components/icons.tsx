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
export const IconStar = icon(
  'M12 17.75l-6.17 3.25 1.18-6.88-5-4.87 6.9-1L12 2l3.09 6.25 6.9 1-5 4.87 1.18 6.88z',
);
export const IconInfo = icon('M12 3a9 9 0 1 0 0 18a9 9 0 0 0 0-18z', 'M12 8h.01', 'M11 12h1v4h1');
