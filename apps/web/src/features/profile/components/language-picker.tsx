import { Select } from '@mantine/core';
import { LOCALES, type Locale, type User } from '@wren/contracts';
import { messageOf } from '@/lib/http/http-error';
import { isLocale, useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useUpdateProfile } from '../api/update-profile';

/** Each language in its own name, for the picker. */
const LOCALE_NAMES: Record<Locale, string> = {
  'en-US': 'English (US)',
  es: 'Español',
  fr: 'Français',
  'pt-BR': 'Português (Brasil)',
  ar: 'العربية',
};

const OPTIONS = LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l] }));

/**
 * The user's language, saved with their profile as soon as it is picked (issue 47 item 4): the app
 * switches at once (LocaleSync follows the stored user) and keeps it on every device they sign in on.
 */
export function LanguagePicker({ user }: { user: User }) {
  const t = useT();
  const update = useUpdateProfile();
  const change = async (value: string | null) => {
    if (!isLocale(value) || value === user.locale) return;
    try {
      await update.mutateAsync({ locale: value satisfies Locale });
      toast.success(t('Language saved'));
    } catch (error) {
      toast.error(messageOf(error));
    }
  };
  return (
    <Select
      label={t('Language')}
      description={t("The language of the app's menus and dates. Saved with your profile.")}
      data={OPTIONS}
      value={user.locale}
      onChange={(v) => void change(v)}
      allowDeselect={false}
      disabled={update.isPending}
      maw={360}
    />
  );
}
