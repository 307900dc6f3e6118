import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function OtpServiceEditPage() {
  return <ScreenPlaceholder description="Change the settings of an OTP service." />;
}
