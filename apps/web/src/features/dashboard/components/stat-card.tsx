import type { ReactNode } from 'react';
import { Card, Group, Skeleton, Text, ThemeIcon, type MantineColor } from '@mantine/core';

interface StatCardProps {
  label: string;
  /** Undefined while loading. */
  value: string | undefined;
  hint?: ReactNode;
  icon: ReactNode;
  color: MantineColor;
  testId?: string;
}

/** One headline figure with a caption; the caller gives its texts translated. */
export function StatCard({ label, value, hint, icon, color, testId }: StatCardProps) {
  return (
    <Card withBorder radius="md" padding="lg" data-testid={testId} aria-busy={value === undefined}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Text size="xs" tt="uppercase" fw={700} c="dimmed">
            {label}
          </Text>
          {value === undefined ? (
            <Skeleton height={30} width={110} mt={6} radius="sm" />
          ) : (
            <Text fz={28} fw={700} lh={1.25} mt={2} data-testid={testId && `${testId}-value`}>
              {value}
            </Text>
          )}
        </div>
        <ThemeIcon variant="light" color={color} size={42} radius="md">
          {icon}
        </ThemeIcon>
      </Group>
      {hint && (
        <Text size="sm" c="dimmed" mt="xs">
          {hint}
        </Text>
      )}
    </Card>
  );
}
