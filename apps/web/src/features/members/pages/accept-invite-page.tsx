import { useState } from 'react';
import { Alert, Button, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useNavigate, useParams } from 'react-router';
import {
  ACCOUNT_ROLE_LABELS,
  nameSchema,
  passwordSchema,
  phoneInputSchema,
  usernameSchema,
  type LoginResponse,
  type TwoFactorChallenge,
} from '@wren/contracts';
import { z } from 'zod';
import { rich } from '@/components/common';
import { FormAlert } from '@/components/form-alert';
import { EnrollStep } from '@/features/auth';
import { paths } from '@/config/paths';
import { applySubmitError } from '@/lib/form-errors';
import { HttpError } from '@/lib/http/http-error';
import { useCurrentUser } from '@/lib/use-session';
import { toast } from '@/lib/toast';
import { zodResolver } from '@/lib/zod-resolver';
import { startSession, useAcceptInvite, useInvitePreview } from '../api/members';
import { useT } from '@/lib/i18n';

const newUserSchema = z.object({
  username: usernameSchema,
  name: nameSchema,
  phone: phoneInputSchema,
  password: passwordSchema,
});
const passwordOnlySchema = (required: string) => z.object({ password: z.string().min(1, required) });

const INVITE_ERRORS: Record<string, string> = {
  INVITE_USED: 'This invite has already been used.',
  INVITE_EXPIRED: 'This invite has expired. Ask the account owner for a new one.',
  INVITE_REVOKED: 'This invite was withdrawn.',
  INVITE_INVALID: 'This invite link is not valid. Open it exactly as it was sent.',
};

/** /invite/:token: joins an account from an emailed invite (issue 39). */
export default function AcceptInvitePage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const t = useT();
  const preview = useInvitePreview(token);
  const accept = useAcceptInvite(token);
  const [formError, setFormError] = useState<string | null>(null);
  // The account requires two-factor and the user has none: enrollment before the session.
  const [enroll, setEnroll] = useState<TwoFactorChallenge | null>(null);
  const existing = preview.data?.existingUser ?? false;
  const form = useForm({
    initialValues: { username: '', name: '', phone: '', password: '' },
    validate: (values) =>
      zodResolver(existing ? passwordOnlySchema(t('Password is required')) : newUserSchema)(
        existing ? { password: values.password } : values,
      ),
  });

  const welcome = async () => {
    toast.success(
      preview.data
        ? t('Welcome to {{name}}', { name: preview.data.accountName })
        : t('Welcome to the account'),
    );
    await navigate(paths.dashboard.getHref(), { replace: true });
  };
  const done = async (result: LoginResponse | TwoFactorChallenge) => {
    if ('twoFactor' in result) {
      setEnroll(result);
      return;
    }
    startSession(result);
    await welcome();
  };

  if (enroll) {
    return <EnrollStep challenge={enroll.challenge} onSession={startSession} onSignedIn={welcome} />;
  }

  if (preview.isPending) return <Loader aria-label={t('Loading the invite')} />;
  if (preview.isError) {
    const code = preview.error instanceof HttpError ? preview.error.code : undefined;
    return (
      <Alert color="red" variant="light" role="alert" title={t('This invite cannot be used')}>
        {(code && INVITE_ERRORS[code] && t(INVITE_ERRORS[code])) || preview.error.message}
      </Alert>
    );
  }
  const info = preview.data;
  const intro = (
    <Text size="sm">
      {rich(t, 'You are invited to {{account}} as {{role}} ({{email}}).', {
        account: <b>{info.accountName}</b>,
        role: <b>{t(ACCOUNT_ROLE_LABELS[info.role])}</b>,
        email: info.emailMasked,
      })}
    </Text>
  );

  if (user) {
    return (
      <Stack>
        {intro}
        <FormAlert message={formError} />
        <Button
          loading={accept.isPending}
          onClick={() =>
            accept.mutate({}, { onSuccess: (s) => void done(s), onError: (e) => setFormError(e.message) })
          }
        >
          {t('Accept as {{username}}', { username: user.username })}
        </Button>
      </Stack>
    );
  }

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      await done(await accept.mutateAsync(existing ? { password: values.password } : values));
    } catch (error) {
      setFormError(applySubmitError(form, error));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t('Accept invite')}>
      <Stack>
        {intro}
        <FormAlert message={formError} />
        {existing ? (
          <Text size="sm" c="dimmed">
            {t('You already have a Wren account with this email: enter its password to join.')}
          </Text>
        ) : (
          <>
            <TextInput
              label={t('Username')}
              required
              autoComplete="username"
              {...form.getInputProps('username')}
            />
            <TextInput label={t('Your name')} required autoComplete="name" {...form.getInputProps('name')} />
            <TextInput label={t('Phone')} required autoComplete="tel" {...form.getInputProps('phone')} />
          </>
        )}
        <PasswordInput
          label={existing ? t('Password') : t('Choose a password')}
          required
          autoComplete={existing ? 'current-password' : 'new-password'}
          {...form.getInputProps('password')}
        />
        <Button type="submit" fullWidth loading={accept.isPending}>
          {existing ? t('Join the account') : t('Create account and join')}
        </Button>
      </Stack>
    </form>
  );
}
