import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function GroupsPage() {
  return <ScreenPlaceholder description="Contact groups you can send bulk messages to." />;
}
