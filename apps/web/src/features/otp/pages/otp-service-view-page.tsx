import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function OtpServiceViewPage() {
  return <ScreenPlaceholder description="The settings and activity of an OTP service." />;
}
