import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement> & { size?: number };

/**
 * A maker of small stroke icons (24 × 24 grid) drawn `defaultSize` pixels wide unless told
 * otherwise; decorative unless given a title by the caller.
 */
export const iconOfSize = (defaultSize: number) =>
  function icon(...paths: string[]) {
    return function Icon({ size = defaultSize, ...props }: IconProps) {
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
  };

const icon = iconOfSize(20);

export type AppIcon = ReturnType<typeof icon>;

/** A receipt: billing and statements. */
export const IconReceipt = icon('M6 3h12v18l-3-2-3 2-3-2-3 2z', 'M9 8h6', 'M9 12h6', 'M9 16h3');

export const IconDashboard = icon('M4 4h6v8H4z', 'M4 16h6v4H4z', 'M14 12h6v8h-6z', 'M14 4h6v4h-6z');
export const IconMessage = icon(
  'M8 9h8',
  'M8 13h6',
  'M18 4a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3h-5l-5 3v-3H6a3 3 0 0 1-3-3V7a3 3 0 0 1 3-3z',
);
export const IconMessages = icon(
  'M21 14l-3-3h-7a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h9a1 1 0 0 1 1 1z',
  'M14 15v2a1 1 0 0 1-1 1H6l-3 3V11a1 1 0 0 1 1-1h2',
);
export const IconUserMessage = icon(
  'M8 9h8',
  'M8 13h4',
  'M13 18l-5 3v-3H6a3 3 0 0 1-3-3V7a3 3 0 0 1 3-3h12a3 3 0 0 1 3 3v4',
  'M19 22v-1a2 2 0 0 0-2-2h-1',
  'M17 15.5a1.5 1.5 0 1 0 0 .01',
);
export const IconList = icon('M9 6h11', 'M9 12h11', 'M9 18h11', 'M5 6v.01', 'M5 12v.01', 'M5 18v.01');
export const IconChart = icon('M3 3v18h18', 'M7 15l4-4 3 3 5-6');
export const IconClock = icon('M12 3a9 9 0 1 0 0 18a9 9 0 0 0 0-18z', 'M12 7v5l3 3');
export const IconApi = icon('M7 8l-4 4 4 4', 'M17 8l4 4-4 4', 'M14 4l-4 16');
export const IconSettings = icon(
  'M10.3 4.3c.4-1.8 3-1.8 3.4 0a1.7 1.7 0 0 0 2.6 1.1c1.5-.9 3.3.8 2.4 2.4a1.7 1.7 0 0 0 1 2.5c1.8.4 1.8 3 0 3.4a1.7 1.7 0 0 0-1 2.6c.9 1.5-.9 3.3-2.4 2.4a1.7 1.7 0 0 0-2.6 1c-.4 1.8-3 1.8-3.4 0a1.7 1.7 0 0 0-2.5-1c-1.6.9-3.3-.9-2.4-2.4a1.7 1.7 0 0 0-1.1-2.6c-1.8-.4-1.8-3 0-3.4a1.7 1.7 0 0 0 1.1-2.5c-.9-1.6.9-3.3 2.4-2.4a1.7 1.7 0 0 0 2.5-1.1z',
  'M12 9a3 3 0 1 0 0 6a3 3 0 0 0 0-6z',
);
export const IconId = icon(
  'M3 7a3 3 0 0 1 3-3h12a3 3 0 0 1 3 3v10a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3z',
  'M9 10a2 2 0 1 0 0 .01',
  'M15 8h2',
  'M15 12h2',
  'M7 16h10',
);
export const IconUsers = icon(
  'M9 7a4 4 0 1 0 0 .01',
  'M3 21v-2a4 4 0 0 1 4-4h4a4 4 0 0 1 4 4v2',
  'M16 3.13a4 4 0 0 1 0 7.75',
  'M21 21v-2a4 4 0 0 0-3-3.85',
);
export const IconBookmark = icon('M18 7v14l-6-4-6 4V7a4 4 0 0 1 4-4h4a4 4 0 0 1 4 4z');
export const IconBell = icon(
  'M10 5a2 2 0 1 1 4 0a7 7 0 0 1 4 6v3a4 4 0 0 0 2 3H4a4 4 0 0 0 2-3v-3a7 7 0 0 1 4-6',
  'M9 17v1a3 3 0 0 0 6 0v-1',
);
export const IconSun = icon(
  'M12 8a4 4 0 1 0 0 8a4 4 0 0 0 0-8z',
  'M3 12h1m8-9v1m8 8h1m-9 8v1M5.6 5.6l.7.7m12.1-.7-.7.7m0 11.4.7.7m-12.1-.7-.7.7',
);
export const IconMoon = icon('M12 3c.13 0 .26 0 .39 0a7.5 7.5 0 0 0 7.92 12.45A9 9 0 1 1 12 3z');
export const IconLogout = icon(
  'M14 8V6a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h7a2 2 0 0 0 2-2v-2',
  'M9 12h12l-3-3',
  'M18 15l3-3',
);
export const IconUser = icon('M8 7a4 4 0 1 0 8 0a4 4 0 0 0-8 0', 'M6 21v-2a4 4 0 0 1 4-4h4a4 4 0 0 1 4 4v2');
export const IconTools = icon(
  'M3 21h4L20 8a1.5 1.5 0 0 0-4-4L3 17v4',
  'M14.5 5.5l4 4',
  'M12 8L7 3 3 7l5 5',
  'M7 8L5.5 9.5',
  'M16 12l5 5-4 4-5-5',
  'M16 17l-1.5 1.5',
);
export const IconHome = icon(
  'M5 12H3l9-9 9 9h-2',
  'M5 12v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7',
  'M9 21v-6a2 2 0 0 1 2-2h2a2 2 0 0 1 2 2v6',
);
export const IconCompass = icon('M8 16l2-6 6-2-2 6-6 2', 'M12 3a9 9 0 1 0 0 18a9 9 0 0 0 0-18z');
export const IconLock = icon(
  'M5 13a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2z',
  'M8 11V7a4 4 0 1 1 8 0v4',
);
export const IconChevronsLeft = icon('M11 7l-5 5 5 5', 'M17 7l-5 5 5 5');
export const IconChevronsRight = icon('M7 7l5 5-5 5', 'M13 7l5 5-5 5');

/** Action icons shared by the list screens (18 px). */
const rowIcon = iconOfSize(18);
export const IconPlus = rowIcon('M12 5v14', 'M5 12h14');
export const IconTrash = rowIcon(
  'M4 7h16',
  'M10 11v6',
  'M14 11v6',
  'M5 7l1 12a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2l1-12',
  'M9 7V4a1 1 0 0 1 1-1h4a1 1 0 0 1 1 1v3',
);
export const IconPencil = rowIcon('M4 20h4L18.5 9.5a2.83 2.83 0 0 0-4-4L4 16v4', 'M13.5 6.5l4 4');
export const IconSearch = rowIcon('M10 3a7 7 0 1 0 0 14a7 7 0 0 0 0-14z', 'M21 21l-6-6');
