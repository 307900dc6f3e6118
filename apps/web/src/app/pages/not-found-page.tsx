import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { IconCompass } from '@/components/icons';
import { paths } from '@/config/paths';
import { Brand } from '../layout/sidebar';
import classes from './not-found-page.module.css';
import { useT } from '@/lib/i18n';

/** Where every unknown address lands (SPEC.md §2), with a way home. */
export default function NotFoundPage() {
  const t = useT();
  return (
    <Center component="main" className={classes.page}>
      <Stack align="center" gap="md" maw={460} ta="center">
        {/* The app's logo and name, linking home, as on every other page. */}
        <header>
          <Brand />
        </header>
        <div className={classes.code} aria-hidden="true">
          404
        </div>
        <IconCompass size={40} className={classes.icon} />
        <Title order={1}>{t('We can’t find that page')}</Title>
        <Text c="dimmed">
          {t(
            'The address may be mistyped, or the page may have moved. Everything in Wren starts from the dashboard.',
          )}
        </Text>
        <Button component={Link} to={paths.home.getHref()} size="md">
          {t('Go to the dashboard')}
        </Button>
      </Stack>
    </Center>
  );
}
