import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function TemplatesPage() {
  return <ScreenPlaceholder description="Saved messages you can reuse when sending." />;
}
