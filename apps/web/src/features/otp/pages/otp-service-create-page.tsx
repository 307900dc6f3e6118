import { OtpServiceForm } from '../components/otp-service-form';

export default function OtpServiceCreatePage() {
  return <OtpServiceForm />;
}
