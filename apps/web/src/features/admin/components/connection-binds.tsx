import { Badge, Group, Stack, Text } from '@mantine/core';
import type { ConnectionDto, ConnectionStatusDto } from '@wren/contracts';
import type { Translate } from '@/lib/i18n';

/** The origin badge's colour: seeded from the environment, created in the console, or built in. */
export const ORIGIN_COLORS: Record<ConnectionDto['origin'], string> = {
  env: 'grape',
  console: 'blue',
  builtin: 'gray',
};

/** Binds up of those configured, per worker reporting the connection (the system status). */
export function Binds({ c, live, t }: { c: ConnectionDto; live: ConnectionStatusDto[]; t: Translate }) {
  if (!live.length)
    return (
      <Text size="sm" c="dimmed" data-testid="binds">
        {t('{{up}} of {{binds}} up', { up: '—', binds: c.binds })}
      </Text>
    );
  return (
    <Stack gap={2} data-testid="binds">
      {live.map((s) => {
        const color =
          s.bound === 0
            ? s.paused
              ? 'gray'
              : 'red'
            : s.bound < (s.keptBinds ?? s.binds)
              ? 'yellow'
              : 'green';
        return (
          <Group key={s.worker} gap={6} wrap="nowrap">
            <Badge variant="dot" color={color} tt="none" miw="max-content">
              {t('{{up}} of {{binds}} up', { up: s.bound, binds: s.binds })}
            </Badge>
            {live.length > 1 && (
              <Text span size="xs" c="dimmed" ff="monospace">
                {s.worker}
              </Text>
            )}
          </Group>
        );
      })}
    </Stack>
  );
}
