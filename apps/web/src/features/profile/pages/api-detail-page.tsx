import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function ApiDetailPage() {
  return <ScreenPlaceholder description="Your account’s API connection details." />;
}
