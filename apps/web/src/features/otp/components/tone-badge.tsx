import { Badge, type BadgeProps } from '@mantine/core';

/**
 * A status badge with AA contrast in both schemes: white text on the colour's darkest shade (the
 * light variant's tinted text falls short of 4.5:1 on this theme).
 */
export function ToneBadge({ color = 'gray', ...props }: BadgeProps & { color?: string }) {
  return <Badge variant="filled" tt="none" color={color === 'gray' ? 'gray.7' : `${color}.9`} {...props} />;
}
