import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function OtpDocItemPage() {
  return <ScreenPlaceholder description="Integration documentation for one OTP service." />;
}
