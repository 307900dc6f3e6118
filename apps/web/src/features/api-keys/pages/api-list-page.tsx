import { ScreenPlaceholder } from '@/components/screen-placeholder';

export default function ApiListPage() {
  return (
    <ScreenPlaceholder description="API access for sending SMS and OTP messages from your own systems." />
  );
}
