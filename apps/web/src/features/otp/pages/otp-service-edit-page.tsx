import { Alert, Skeleton, Stack } from '@mantine/core';
import { useParams } from 'react-router';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { useOtpService } from '../api/otp-services';
import { OtpServiceForm } from '../components/otp-service-form';
import { isMissing, ServiceNotFound } from '../components/service-not-found';

export default function OtpServiceEditPage() {
  const t = useT();
  const id = useParams().id ?? '';
  const service = useOtpService(id);
  if (service.isPending)
    return (
      <Stack aria-busy="true" aria-label={t('Loading the OTP service')} maw={960}>
        <Skeleton height={260} radius="md" />
        <Skeleton height={120} radius="md" />
      </Stack>
    );
  if (service.isError)
    return isMissing(service.error) ? (
      <ServiceNotFound />
    ) : (
      <Alert color="red" variant="light" role="alert" title={t('The service could not be loaded')}>
        {messageOf(service.error)}
      </Alert>
    );
  return <OtpServiceForm key={service.data.id} service={service.data} />;
}
