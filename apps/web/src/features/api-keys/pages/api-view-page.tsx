import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function ApiViewPage() {
  return <ScreenPlaceholder description="The details of one API key." />;
}
