import { useState } from 'react';
import { Button, Code, CopyButton, Group, Image, Stack, Text, TextInput } from '@mantine/core';
import { totpCodeSchema, type TwoFactorEnrollment } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';

/** The key in groups of four, easier to type into an authenticator app. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * Step one of two-factor setup: the QR code (or the key, typed by hand) for an authenticator app,
 * then the app's first code to confirm. `onConfirm` throws to show its error.
 */
export function EnrollmentSetup({
  enrollment,
  onConfirm,
  pending,
}: {
  enrollment: TwoFactorEnrollment;
  onConfirm: (code: string) => Promise<void>;
  pending: boolean;
}) {
  const t = useT();
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const parsed = totpCodeSchema.safeParse(code);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? t('Enter the code'));
      return;
    }
    setFieldError(null);
    try {
      await onConfirm(parsed.data);
    } catch (error) {
      setFormError(messageOf(error));
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('Confirm two-factor setup')}>
      <Stack>
        <Text size="sm">
          {t('Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy, …).')}
        </Text>
        <Image
          src={enrollment.qrDataUrl}
          alt={t('QR code for your authenticator app')}
          w={200}
          h={200}
          fit="contain"
          data-testid="two-factor-qr"
        />
        <div>
          <Text size="sm">{t('Or enter this key by hand:')}</Text>
          <Group gap="xs" wrap="wrap">
            <Code data-testid="two-factor-secret" style={{ wordBreak: 'break-all' }}>
              {grouped(enrollment.secret)}
            </Code>
            <CopyButton value={enrollment.secret}>
              {({ copied, copy }) => (
                <Button size="compact-xs" variant="default" onClick={copy}>
                  {copied ? t('Copied') : t('Copy key')}
                </Button>
              )}
            </CopyButton>
          </Group>
        </div>
        <FormAlert message={formError} />
        <TextInput
          label={t('Code from the app')}
          description={t('The 6-digit code your app shows for Wren')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          required
          value={code}
          error={fieldError}
          onChange={(e) => setCode(e.currentTarget.value)}
          w={{ base: '100%', xs: 240 }}
        />
        <Group>
          <Button type="submit" loading={pending}>
            {t('Turn on two-factor')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
