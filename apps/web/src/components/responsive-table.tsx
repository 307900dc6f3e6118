import { Table, type TableProps } from '@mantine/core';
import type { CSSProperties } from 'react';
import classes from './responsive-table.module.css';

/**
 * The app's list table: on desktop a table that scrolls sideways below `minWidth`; on small screens
 * (< 768 px) each row becomes a card whose cells show their column name. Give every `Table.Td` a
 * `data-label` (its column's name; "" for the actions cell).
 */
export function ResponsiveTable({ minWidth = 0, className, ...props }: TableProps & { minWidth?: number }) {
  return (
    <div className={classes.scroll} style={{ '--rt-min-width': `${minWidth}px` } as CSSProperties}>
      <Table {...props} className={[classes.table, className].filter(Boolean).join(' ')} />
    </div>
  );
}
