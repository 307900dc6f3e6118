import { Badge, useComputedColorScheme, type BadgeProps } from '@mantine/core';

/**
 * A light badge whose text keeps AA contrast in both schemes: the colour's darkest shade on its
 * tint in light mode, Mantine's own light variant in dark mode.
 */
export function ToneBadge({ color = 'gray', ...props }: BadgeProps & { color?: string }) {
  const scheme = useComputedColorScheme('light');
  return <Badge variant="light" tt="none" color={scheme === 'light' ? `${color}.9` : color} {...props} />;
}
