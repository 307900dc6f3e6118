import { Text } from '@mantine/core';
import classes from './main-layout.module.css';
import { useT } from '@/lib/i18n';

/** The product named as an SMS platform, the copyright year and the developer credit (SPEC.md §1). */
export const FOOTER_TEXT = 'Wren SMS platform © 2023 · Powered by Wren Labs';

export function Footer() {
  const t = useT();
  return (
    <footer id="app-footer" className={classes.footer}>
      <Text size="sm" c="dimmed">
        {t(FOOTER_TEXT)}
      </Text>
    </footer>
  );
}
