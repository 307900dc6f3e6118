import { Text } from '@mantine/core';
import classes from './main-layout.module.css';

/** The product named as an SMS platform, the copyright year and the developer credit (SPEC.md §1). */
export const FOOTER_TEXT = 'Wren SMS platform © 2023 · Powered by Wren Labs';

export function Footer() {
  return (
    <footer id="app-footer" className={classes.footer}>
      <Text size="sm" c="dimmed">
        {FOOTER_TEXT}
      </Text>
    </footer>
  );
}
