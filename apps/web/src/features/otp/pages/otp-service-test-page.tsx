import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function OtpServiceTestPage() {
  return <ScreenPlaceholder description="Send a test one-time password and verify it." />;
}
