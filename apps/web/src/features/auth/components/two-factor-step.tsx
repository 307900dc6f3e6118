import { useState } from 'react';
import { Anchor, Button, Checkbox, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  REMEMBER_DEVICE_DAYS,
  recoveryCodeSchema,
  totpCodeSchema,
  type LoginResponse,
  type TwoFactorChallenge,
  type TwoFactorEnrollment,
} from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { EnrollmentSetup } from '@/components/two-factor/enrollment-setup';
import { RecoveryCodesPanel } from '@/components/two-factor/recovery-codes-panel';
import { messageOf } from '@/lib/http/http-error';
import { confirmSignInEnrollment, startSignInEnrollment, verifySignIn } from '../api/two-factor';
import { useT } from '@/lib/i18n';

/** The code step of sign-in: a code from the app or a recovery code, and "remember this device". */
function CodeStep({
  challenge,
  onSignedIn,
}: {
  challenge: string;
  onSignedIn: (session: LoginResponse) => Promise<void>;
}) {
  const t = useT();
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [remember, setRemember] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const parsed = (useRecovery ? recoveryCodeSchema : totpCodeSchema).safeParse(value);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? t('Enter the code'));
      return;
    }
    setFieldError(null);
    setPending(true);
    try {
      const session = await verifySignIn({
        challenge,
        ...(useRecovery ? { recoveryCode: parsed.data } : { code: parsed.data }),
        rememberDevice: remember,
      });
      await onSignedIn(session);
    } catch (error) {
      setFormError(messageOf(error));
      setPending(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('Two-factor code')}>
      <Stack>
        <Title order={3}>{t('Two-factor sign-in')}</Title>
        <Text size="sm" c="dimmed">
          {useRecovery
            ? t('Enter one of the recovery codes you saved. Each works once.')
            : t('Enter the 6-digit code from your authenticator app.')}
        </Text>
        <FormAlert message={formError} />
        <TextInput
          key={useRecovery ? 'recovery' : 'code'}
          label={useRecovery ? t('Recovery code') : t('Code')}
          inputMode={useRecovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          autoFocus
          required
          value={value}
          error={fieldError}
          onChange={(e) => setValue(e.currentTarget.value)}
        />
        <Checkbox
          label={t('Remember this device for {{days}} days', { days: REMEMBER_DEVICE_DAYS })}
          checked={remember}
          onChange={(e) => setRemember(e.currentTarget.checked)}
        />
        <Button type="submit" fullWidth loading={pending}>
          {t('Verify')}
        </Button>
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => {
            setUseRecovery(!useRecovery);
            setValue('');
            setFieldError(null);
          }}
        >
          {useRecovery ? t('Use a code from the app instead') : t('Use a recovery code instead')}
        </Anchor>
      </Stack>
    </form>
  );
}

/**
 * Enrollment during sign-in, when the account requires two-factor of its members; also before
 * accepting an invite into, or switching into, such an account (members' accept page, switcher).
 */
export function EnrollStep({
  challenge,
  onSignedIn,
  onSession,
}: {
  challenge: string;
  /** After the recovery codes were shown (Continue). */
  onSignedIn: (session: LoginResponse) => Promise<void>;
  /**
   * At once when the enrollment is confirmed, before the codes show: a signed-in caller adopts the
   * new session there, since confirming ends the user's other sessions (the current one too).
   */
  onSession?: (session: LoginResponse) => void;
}) {
  const t = useT();
  const [enrollment, setEnrollment] = useState<TwoFactorEnrollment | null>(null);
  const [result, setResult] = useState<(LoginResponse & { recoveryCodes: string[] }) | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (result) {
    return (
      <RecoveryCodesPanel
        codes={result.recoveryCodes}
        doneLabel={t('Continue')}
        onDone={() => void onSignedIn(result)}
      />
    );
  }
  return (
    <Stack>
      <Title order={3}>{t('Set up two-factor sign-in')}</Title>
      <Text size="sm" c="dimmed">
        {t('This account requires two-factor sign-in of its members. Set it up to continue.')}
      </Text>
      <FormAlert message={error} />
      {enrollment ? (
        <EnrollmentSetup
          enrollment={enrollment}
          pending={pending}
          onConfirm={async (code) => {
            setPending(true);
            try {
              const confirmed = await confirmSignInEnrollment({ challenge, code });
              onSession?.(confirmed);
              setResult(confirmed);
            } finally {
              setPending(false);
            }
          }}
        />
      ) : (
        <Button
          loading={pending}
          onClick={async () => {
            setPending(true);
            setError(null);
            try {
              setEnrollment(await startSignInEnrollment(challenge));
            } catch (e) {
              setError(messageOf(e));
            } finally {
              setPending(false);
            }
          }}
        >
          {t('Set up two-factor')}
        </Button>
      )}
    </Stack>
  );
}

/** The second step of sign-in the password step asked for (POST /api/auth/login's challenge). */
export function TwoFactorStep({
  challenge,
  onSignedIn,
  onBack,
}: {
  challenge: TwoFactorChallenge;
  onSignedIn: (session: LoginResponse) => Promise<void>;
  onBack: () => void;
}) {
  const t = useT();
  return (
    <Stack>
      {challenge.twoFactor === 'code' ? (
        <CodeStep challenge={challenge.challenge} onSignedIn={onSignedIn} />
      ) : (
        <EnrollStep challenge={challenge.challenge} onSignedIn={onSignedIn} />
      )}
      <Anchor component="button" type="button" size="sm" onClick={onBack}>
        {t('Back to sign in')}
      </Anchor>
    </Stack>
  );
}
