import { useMediaQuery } from '@mantine/hooks';

/** Below Mantine's `sm` breakpoint (768 px) lists show as cards instead of tables. */
export const useIsMobile = (): boolean =>
  useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
