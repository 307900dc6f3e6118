import { OtpDocs } from '../components/otp-docs';

export default function OtpDocPage() {
  return <OtpDocs />;
}
