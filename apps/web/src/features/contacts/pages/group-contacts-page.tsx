import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function GroupContactsPage() {
  return <ScreenPlaceholder description="The contacts of one group: add, import, edit and remove them." />;
}
