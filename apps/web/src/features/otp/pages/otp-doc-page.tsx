import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function OtpDocPage() {
  return <ScreenPlaceholder description="How to send and verify one-time passwords." />;
}
