import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function ApiEditPage() {
  return <ScreenPlaceholder description="Change the scopes, limits and allowed addresses of an API key." />;
}
