import { Group, Text, type TextProps } from '@mantine/core';

interface SummaryRowProps {
  label: string;
  value: React.ReactNode;
  testId?: string;
  /** How the value aligns when it wraps. */
  valueAlign?: TextProps['ta'];
}

/** One line of a summary card: a dimmed label on the left, its value on the right. */
export function SummaryRow({ label, value, testId, valueAlign }: SummaryRowProps) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} data-testid={testId} ta={valueAlign}>
        {value}
      </Text>
    </Group>
  );
}
