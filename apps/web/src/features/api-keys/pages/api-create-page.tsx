import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function ApiCreatePage() {
  return <ScreenPlaceholder description="Create a new API key with its scopes and limits." />;
}
