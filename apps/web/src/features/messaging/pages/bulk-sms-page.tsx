import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function BulkSmsPage() {
  return (
    <ScreenPlaceholder description="Send one message to a contact group or an uploaded list of numbers." />
  );
}
