import { Tooltip } from '@mantine/core';
import type { ReactElement } from 'react';

/** A folded sidebar link's name beside it (sidebar.tsx loads this once the sidebar is folded). */
export default function SidebarTooltip({ label, children }: { label: string; children: ReactElement }) {
  return (
    <Tooltip label={label} position="right" withArrow>
      {children}
    </Tooltip>
  );
}
