import { Alert, Skeleton } from '@mantine/core';
import { useParams } from 'react-router';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { useOtpService } from '../api/otp-services';
import { OtpDocs } from '../components/otp-docs';
import { isMissing, ServiceNotFound } from '../components/service-not-found';

export default function OtpDocItemPage() {
  const t = useT();
  const id = useParams().id ?? '';
  const service = useOtpService(id);
  if (service.isPending)
    return <Skeleton height={300} radius="md" aria-label={t('Loading the OTP service')} />;
  if (service.isError)
    return isMissing(service.error) ? (
      <ServiceNotFound />
    ) : (
      <Alert color="red" variant="light" role="alert" title={t('The service could not be loaded')}>
        {messageOf(service.error)}
      </Alert>
    );
  return <OtpDocs serviceId={service.data.id} serviceName={service.data.name} />;
}
