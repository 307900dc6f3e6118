import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function ApiDocPage() {
  return <ScreenPlaceholder description="Reference documentation of the SMS and OTP API." />;
}
