import { Button, Card, Divider, Group, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router';
import { updateProfileSchema, type User } from '@wren/contracts';
import { TimezoneSelect } from '@/components/timezone-select';
import { paths } from '@/config/paths';
import { applySubmitError } from '@/lib/form-errors';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useCurrentUser } from '@/lib/use-session';
import { zodResolver } from '@/lib/zod-resolver';
import { useUpdateProfile } from '../api/update-profile';
import { LanguagePicker } from '../components/language-picker';
import { PictureUpload } from '../components/picture-upload';

/** The details form's fields, all required here; the language has its own picker below. */
const detailsSchema = updateProfileSchema.omit({ locale: true }).required();

interface DetailsForm {
  name: string;
  email: string;
  phone: string;
  timezone: string;
}

function DetailsForm({ user }: { user: User }) {
  const t = useT();
  const update = useUpdateProfile();
  const form = useForm<DetailsForm>({
    initialValues: { name: user.name, email: user.email, phone: user.phone, timezone: user.timezone },
    validate: zodResolver(detailsSchema),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync(detailsSchema.parse(values));
      form.setInitialValues({
        name: saved.name,
        email: saved.email,
        phone: saved.phone,
        timezone: saved.timezone,
      });
      form.setValues({ name: saved.name, email: saved.email, phone: saved.phone, timezone: saved.timezone });
      toast.success(t('Your profile has been updated.'));
    } catch (error) {
      const message = applySubmitError(form, error);
      if (message) toast.error(message);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t('Profile details')}>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('Full name')} autoComplete="name" required {...form.getInputProps('name')} />
          <TextInput
            label={t('Email')}
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <TextInput
            label={t('Phone')}
            type="tel"
            autoComplete="tel"
            required
            {...form.getInputProps('phone')}
          />
          <TimezoneSelect
            label={t('Time zone')}
            required
            allowDeselect={false}
            {...form.getInputProps('timezone')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button component={Link} to={paths.profile.view.getHref()} variant="default">
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
            {t('Save changes')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export default function UpdateProfilePage() {
  const t = useT();
  const user = useCurrentUser();
  if (!user) return null;
  return (
    <Card withBorder radius="md" padding="xl">
      <Stack gap="lg">
        <Title order={2} size="h4">
          {t('Picture')}
        </Title>
        <PictureUpload user={user} />
        <Divider />
        <Title order={2} size="h4">
          {t('Details')}
        </Title>
        <DetailsForm user={user} />
        <Divider />
        <LanguagePicker user={user} />
      </Stack>
    </Card>
  );
}
