import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function DashboardPage() {
  return (
    <ScreenPlaceholder description="Your account balance, delivery status and sending performance will appear here, updated live." />
  );
}
