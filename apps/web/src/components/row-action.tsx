import type { ReactNode } from 'react';
import { ActionIcon, Tooltip } from '@mantine/core';

interface RowActionProps {
  /** The tooltip: a verb ("Edit"). */
  tip: string;
  /** What screen readers announce, naming the item ("Edit template Welcome"). */
  label: string;
  danger?: boolean;
  onClick: () => void;
  children: ReactNode;
}

/** An icon button in a list row, with a tooltip and a full accessible name. */
export function RowAction({ tip, label, danger = false, onClick, children }: RowActionProps) {
  return (
    <Tooltip label={tip} withArrow>
      <ActionIcon variant="subtle" color={danger ? 'red' : 'gray'} onClick={onClick} aria-label={label}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
