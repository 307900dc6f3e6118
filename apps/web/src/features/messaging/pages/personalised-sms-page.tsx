import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function PersonalisedSmsPage() {
  return (
    <ScreenPlaceholder description="Send messages that fill in each recipient’s own details from an uploaded sheet." />
  );
}
