import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function ProfileApiDocPage() {
  return <ScreenPlaceholder description="How to send SMS and OTP messages from your own systems." />;
}
