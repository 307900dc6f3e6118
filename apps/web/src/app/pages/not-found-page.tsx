import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { IconCompass } from '@/components/icons';
import { paths } from '@/config/paths';
import { Brand } from '../layout/sidebar';
import classes from './not-found-page.module.css';

/** Where every unknown address lands (SPEC.md §2), with a way home. */
export default function NotFoundPage() {
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
        <Title order={1}>We can’t find that page</Title>
        <Text c="dimmed">
          The address may be mistyped, or the page may have moved. Everything in Wren starts from the
          dashboard.
        </Text>
        <Button component={Link} to={paths.home.getHref()} size="md">
          Go to the dashboard
        </Button>
      </Stack>
    </Center>
  );
}
