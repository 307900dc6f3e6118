import { Button, Center, Code, Stack, Text, Title } from '@mantine/core';
import { useRouteError } from 'react-router';
import { useT } from '@/lib/i18n';

/** Shown when a page fails to load or render, e.g. a stale chunk after a new release. */
export function RouteErrorPage() {
  const error = useRouteError();
  const t = useT();
  console.error('Route error:', error);
  const message = error instanceof Error ? error.message : t('Unexpected error');
  return (
    <Center component="main" mih="100dvh" p="xl">
      <Stack align="center" maw={520} ta="center">
        <Title order={1}>{t('Something went wrong')}</Title>
        <Text c="dimmed">{t('This page could not be shown. Reloading usually fixes it.')}</Text>
        <Code block>{message}</Code>
        <Button onClick={() => window.location.reload()}>{t('Reload')}</Button>
      </Stack>
    </Center>
  );
}
