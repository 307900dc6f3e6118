import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '@/lib/query-client';
import { TOAST_OPTIONS } from '@/lib/toast';
import { cookieColorSchemeManager } from './color-scheme';
import { LocaleSync } from './locale-sync';
import { cssVariablesResolver, theme } from './theme';

const colorSchemeManager = cookieColorSchemeManager();

interface ProvidersProps {
  children: ReactNode;
  /** 'test' turns off Mantine's transitions and portals (unit tests). */
  env?: 'default' | 'test';
}

export function Providers({ children, env }: ProvidersProps) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
      env={env}
    >
      <Notifications
        position={TOAST_OPTIONS.position}
        autoClose={TOAST_OPTIONS.timeOutMs}
        transitionDuration={TOAST_OPTIONS.transitionMs}
        zIndex={100000}
        containerWidth={400}
      />
      <LocaleSync />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
