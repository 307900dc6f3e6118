import type { ComponentPropsWithRef } from 'react';
import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { Deferred } from '@/components/deferred';
import { IconMoon, IconSun } from '@/components/icons';
import { useT } from '@/lib/i18n';

/** The light/dark switch: what it shows and says, and what a click does. */
export function useColorSchemeSwitch() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const t = useT();
  const next = computed === 'dark' ? 'light' : 'dark';
  const label = next === 'dark' ? t('Switch to dark mode') : t('Switch to light mode');
  return { computed, label, toggle: () => setColorScheme(next) };
}

/** The switch's button; a tooltip around it passes its ref and event handlers through `props`. */
export function ColorSchemeButton(props: Omit<ComponentPropsWithRef<'button'>, 'color'>) {
  const { computed, label, toggle } = useColorSchemeSwitch();
  return (
    <ActionIcon {...props} variant="subtle" color="gray" size="lg" aria-label={label} onClick={toggle}>
      {computed === 'dark' ? <IconSun /> : <IconMoon />}
    </ActionIcon>
  );
}

/** The switch works at once; its tooltip's code loads when the pointer or focus first reaches it. */
export function ColorSchemeToggle() {
  return (
    <Deferred
      load={() => import('./color-scheme-toggle-tooltip').then((m) => m.ColorSchemeToggleWithTooltip)}
    >
      <ColorSchemeButton />
    </Deferred>
  );
}
