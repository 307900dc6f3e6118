import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function SenderIdsPage() {
  return (
    <ScreenPlaceholder description="The sender names your messages can come from, and requests for new ones." />
  );
}
