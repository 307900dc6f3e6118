import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useCurrentUser } from '@/lib/use-session';
import { formatDate } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { ProfileAvatar } from '../components/profile-avatar';
import { TwoFactorSection } from '../components/two-factor-section';

function Field({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" tt="uppercase" fw={700} c="dimmed">
        {label}
      </Text>
      <Text>{value || '—'}</Text>
    </div>
  );
}

export default function ProfilePage() {
  const t = useT();
  const user = useCurrentUser();
  if (!user) return null;
  const memberSince = formatDate(user.createdAt);

  return (
    <Stack>
      <Card withBorder radius="md" padding="xl">
        <Stack gap="xl">
          <Group gap="lg" wrap="nowrap">
            <ProfileAvatar user={user} size={96} radius={96} />
            <div>
              <Title order={2}>{user.name}</Title>
              <Text c="dimmed">@{user.username}</Text>
            </div>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <Field label={t('Email')} value={user.email} />
            <Field label={t('Phone')} value={user.phone} />
            <Field label={t('Time zone')} value={user.timezone} />
            <Field label={t('Member since')} value={memberSince} />
          </SimpleGrid>
          <Group>
            <Button component={Link} to={paths.profile.update.getHref()}>
              {t('Edit profile')}
            </Button>
            <Button component={Link} to={paths.profile.password.getHref()} variant="default">
              {t('Change password')}
            </Button>
          </Group>
        </Stack>
      </Card>
      <TwoFactorSection />
    </Stack>
  );
}
