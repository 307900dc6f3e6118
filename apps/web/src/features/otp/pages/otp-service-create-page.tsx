import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function OtpServiceCreatePage() {
  return <ScreenPlaceholder description="Set up a new one-time-password service." />;
}
