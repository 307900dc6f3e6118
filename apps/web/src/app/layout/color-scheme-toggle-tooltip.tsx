import { Tooltip } from '@mantine/core';
import type { DeferredComponentProps } from '@/components/deferred';
import { ColorSchemeButton, useColorSchemeSwitch } from './color-scheme-toggle';

export function ColorSchemeToggleWithTooltip({ hovered }: DeferredComponentProps) {
  const { label } = useColorSchemeSwitch();
  return (
    <Tooltip label={label} defaultOpened={hovered}>
      <ColorSchemeButton />
    </Tooltip>
  );
}
