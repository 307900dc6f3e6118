import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function OtpServicesPage() {
  return <ScreenPlaceholder description="Your one-time-password services." />;
}
