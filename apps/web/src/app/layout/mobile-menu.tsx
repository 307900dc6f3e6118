import { Drawer } from '@mantine/core';
import { Brand, Sidebar } from './sidebar';
import classes from './main-layout.module.css';
import { useT } from '@/lib/i18n';

interface MobileMenuProps {
  opened: boolean;
  onClose: () => void;
}

/** Below 768 px the sidebar is this drawer (main-layout.tsx loads it on phones only). */
export default function MobileMenu({ opened, onClose }: MobileMenuProps) {
  const t = useT();
  return (
    <Drawer
      id="mobile-menu"
      opened={opened}
      onClose={onClose}
      size={280}
      padding={0}
      title={<Brand />}
      classNames={{ header: classes.drawerHeader }}
      closeButtonProps={{ 'aria-label': t('Close menu') }}
    >
      <Sidebar onNavigate={onClose} />
    </Drawer>
  );
}
