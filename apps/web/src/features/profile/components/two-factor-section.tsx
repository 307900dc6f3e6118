import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Group,
  PasswordInput,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { ErrorCode, RECOVERY_CODE_COUNT, totpCodeSchema, type TwoFactorEnrollment } from '@wren/contracts';
import { EnrollmentSetup } from '@/components/two-factor/enrollment-setup';
import { RecoveryCodesPanel } from '@/components/two-factor/recovery-codes-panel';
import { FormAlert } from '@/components/form-alert';
import { HttpError, messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import {
  useConfirmEnrollment,
  useDisableTwoFactor,
  useRegenerateRecoveryCodes,
  useSetAccountRequirement,
  useStartEnrollment,
  useTwoFactorStatus,
} from '../api/two-factor';
import { rich } from './rich';

type Mode = 'idle' | 'enrolling' | 'codes' | 'disabling' | 'regenerating';

/** A code (and optionally the password) asked before a change; `onSubmit` throws to show its error. */
function CodeForm({
  label,
  withPassword,
  submitLabel,
  danger,
  pending,
  onSubmit,
  onCancel,
}: {
  label: string;
  withPassword?: boolean;
  submitLabel: string;
  danger?: boolean;
  pending: boolean;
  onSubmit: (v: { code: string; password: string }) => Promise<void>;
  onCancel: () => void;
}) {
  const t = useT();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ code?: string; password?: string; form?: string }>({});
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = totpCodeSchema.safeParse(code);
    const next: typeof errors = {};
    if (!parsed.success) next.code = parsed.error.issues[0]?.message;
    if (withPassword && !password) next.password = t('Password is required');
    setErrors(next);
    if (next.code || next.password || !parsed.success) return;
    try {
      await onSubmit({ code: parsed.data, password });
    } catch (error) {
      if (error instanceof HttpError && error.code === ErrorCode.WRONG_PASSWORD)
        setErrors({ password: error.message });
      else setErrors({ form: messageOf(error) });
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      <Stack>
        <FormAlert message={errors.form ?? null} />
        {withPassword && (
          <PasswordInput
            label={t('Password')}
            autoComplete="current-password"
            required
            value={password}
            error={errors.password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            w={{ base: '100%', xs: 320 }}
          />
        )}
        <TextInput
          label={t('Code from your authenticator app')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          required
          value={code}
          error={errors.code}
          onChange={(e) => setCode(e.currentTarget.value)}
          w={{ base: '100%', xs: 240 }}
        />
        <Group>
          <Button type="submit" color={danger ? 'red' : undefined} loading={pending}>
            {submitLabel}
          </Button>
          <Button variant="default" onClick={onCancel}>
            {t('Cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The profile's Security section: two-factor sign-in and, for owners and admins, the account rule. */
export function TwoFactorSection() {
  const t = useT();
  const status = useTwoFactorStatus();
  const start = useStartEnrollment();
  const confirm = useConfirmEnrollment();
  const disable = useDisableTwoFactor();
  const regenerate = useRegenerateRecoveryCodes();
  const requirement = useSetAccountRequirement();
  const [mode, setMode] = useState<Mode>('idle');
  const [enrollment, setEnrollment] = useState<TwoFactorEnrollment | null>(null);
  const [codes, setCodes] = useState<string[]>([]);

  const begin = async () => {
    try {
      setEnrollment(await start.mutateAsync());
      setMode('enrolling');
    } catch (error) {
      toast.error(messageOf(error));
    }
  };
  const done = () => {
    setMode('idle');
    setCodes([]);
    setEnrollment(null);
  };

  let body: React.ReactNode;
  // About the height of what loads (a line, the buttons, an owner's switch): the page below it, and
  // an anchor scrolled to on arrival, do not move when it comes.
  if (status.isPending)
    body = (
      <Stack aria-busy="true" aria-label={t('Loading two-factor settings')}>
        <Skeleton height={22} />
        <Skeleton height={36} width={180} />
        <Skeleton height={40} />
      </Stack>
    );
  else if (status.isError) body = <Alert color="red">{messageOf(status.error)}</Alert>;
  else if (mode === 'codes') body = <RecoveryCodesPanel codes={codes} onDone={done} />;
  else if (mode === 'enrolling' && enrollment)
    body = (
      <Stack>
        <EnrollmentSetup
          enrollment={enrollment}
          pending={confirm.isPending}
          onConfirm={async (code) => {
            const result = await confirm.mutateAsync(code);
            setCodes(result.recoveryCodes);
            setMode('codes');
            toast.success(t('Two-factor sign-in is on. Your other sessions have been signed out.'));
          }}
        />
        <Group>
          <Button variant="subtle" onClick={done}>
            {t('Cancel setup')}
          </Button>
        </Group>
      </Stack>
    );
  else if (mode === 'disabling')
    body = (
      <CodeForm
        label={t('Turn off two-factor')}
        withPassword
        danger
        submitLabel={t('Turn off two-factor')}
        pending={disable.isPending}
        onCancel={done}
        onSubmit={async ({ code, password }) => {
          await disable.mutateAsync({ code, password });
          done();
          toast.success(t('Two-factor sign-in is off. Your other sessions have been signed out.'));
        }}
      />
    );
  else if (mode === 'regenerating')
    body = (
      <CodeForm
        label={t('Make new recovery codes')}
        submitLabel={t('Make new codes')}
        pending={regenerate.isPending}
        onCancel={done}
        onSubmit={async ({ code }) => {
          const result = await regenerate.mutateAsync(code);
          setCodes(result.recoveryCodes);
          setMode('codes');
        }}
      />
    );
  else if (status.data.enabled)
    body = (
      <Stack>
        <Text>
          {rich(t, 'Two-factor sign-in is {{on}}. {{left}} of {{count}} recovery codes left.', {
            on: <b>{t('on')}</b>,
            left: status.data.recoveryCodesLeft,
            count: RECOVERY_CODE_COUNT,
          })}
        </Text>
        <Group>
          <Button variant="default" onClick={() => setMode('regenerating')}>
            {t('New recovery codes')}
          </Button>
          {!status.data.accountRequires && (
            <Button variant="default" color="red" onClick={() => setMode('disabling')}>
              {t('Turn off')}
            </Button>
          )}
        </Group>
      </Stack>
    );
  else
    body = (
      <Stack>
        <Text>
          {t('Two-factor sign-in is off. Turn it on to ask for a code from your phone when you sign in.')}
        </Text>
        <Group>
          <Button onClick={begin} loading={start.isPending}>
            {t('Set up two-factor')}
          </Button>
        </Group>
      </Stack>
    );

  return (
    <Card withBorder radius="md" padding="xl" component="section" aria-labelledby="security-title">
      <Stack>
        <Title order={3} id="security-title">
          {t('Security')}
        </Title>
        {body}
        {status.data?.canSetRequirement && (
          <Switch
            label={t('Require two-factor sign-in for all members of this account')}
            description={t('Members without it set it up the next time they sign in.')}
            checked={status.data.accountRequires}
            disabled={requirement.isPending}
            onChange={async (e) => {
              const on = e.currentTarget.checked;
              try {
                await requirement.mutateAsync(on);
                toast.success(
                  on
                    ? t('Two-factor is now required of every member.')
                    : t('Two-factor is no longer required.'),
                );
              } catch (error) {
                toast.error(messageOf(error));
              }
            }}
          />
        )}
      </Stack>
    </Card>
  );
}
