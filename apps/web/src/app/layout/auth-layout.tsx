import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Outlet } from 'react-router';
import { useRouteTitle } from '../route-handle';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { FOOTER_TEXT } from './footer';
import { Brand } from './sidebar';
import classes from './auth-layout.module.css';
import { useT } from '@/lib/i18n';

/** The frame of the visitor pages under /auth. */
export function AuthLayout() {
  const title = useRouteTitle();
  const t = useT();
  return (
    <div className={classes.page}>
      <Group justify="space-between" p="md">
        <Brand />
        <ColorSchemeToggle />
      </Group>
      <main className={classes.main}>
        <Stack w="100%" maw={560} gap="lg">
          <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }}>
            <Stack gap="lg">
              <div>
                <Title order={1} size="h2">
                  {title}
                </Title>
                <Text c="dimmed" size="sm">
                  {t('OTP, single SMS and bulk SMS messaging')}
                </Text>
              </div>
              <Outlet />
            </Stack>
          </Paper>
        </Stack>
      </main>
      <footer className={classes.footer}>
        <Text size="sm" c="dimmed">
          {t(FOOTER_TEXT)}
        </Text>
      </footer>
    </div>
  );
}
