import { useEffect, useState } from 'react';
import { Alert, Button, Card, Group, Loader, Radio, Stack, Switch, Text, Title } from '@mantine/core';
import { describeSendWindow, sendWindowSchema, type SendWindow } from '@wren/contracts';
import { useCan } from '@/lib/account-role';
import { translate, useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useSaveSendWindowSettings, useSendWindowSettings } from '../api/send-window-settings';
import { DEFAULT_SEND_WINDOW, SendWindowEditor } from '../components/send-window-fields';

const errorText = (e: unknown) => (e instanceof Error ? e.message : translate('Something went wrong'));

/**
 * Settings → Send window (issue 41): the account's default window for campaigns, in each
 * recipient's local time, and whether single sends wait for it too. OTP never waits.
 */
export default function SendWindowPage() {
  const t = useT();
  const settings = useSendWindowSettings();
  const save = useSaveSendWindowSettings();
  const canEdit = useCan('sender-ids:manage');
  const [on, setOn] = useState(false);
  const [window, setWindow] = useState<SendWindow>(DEFAULT_SEND_WINDOW);
  const [applyToSingle, setApplyToSingle] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (!settings.data) return;
    setOn(settings.data.window !== null);
    if (settings.data.window) setWindow(settings.data.window);
    setApplyToSingle(settings.data.applyToSingle);
  }, [settings.data]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    if (on) {
      const parsed = sendWindowSchema.safeParse(window);
      if (!parsed.success) for (const i of parsed.error.issues) next[String(i.path[0])] ??= i.message;
    }
    setErrors(next);
    if (Object.keys(next).length) return;
    try {
      await save.mutateAsync({ window: on ? window : null, applyToSingle });
      toast.success(t('Send window saved'));
    } catch (e) {
      toast.error(errorText(e));
    }
  };

  return (
    <Stack maw={820}>
      <Title order={2} size="h3">
        {t('Send window')}
      </Title>
      <Card withBorder>
        {settings.isPending ? (
          <Loader size="sm" aria-label={t('Loading the send window')} />
        ) : settings.isError ? (
          <Alert color="red" role="alert">
            {errorText(settings.error)}
          </Alert>
        ) : (
          <form onSubmit={(e) => void submit(e)} noValidate aria-label={t('Send window')}>
            <Stack>
              <Text size="sm" c="dimmed">
                {t(
                  "Campaigns send only in these hours of each recipient's local time (the zone of the number, or the campaign's when it cannot be told); messages outside wait for the window. A campaign may choose its own window or any hour.",
                )}
              </Text>
              <Radio.Group
                label={t('Default for campaigns')}
                value={on ? 'window' : 'none'}
                onChange={(v) => setOn(v === 'window')}
              >
                <Stack gap={6} mt={6}>
                  <Radio value="none" label={t('Any hour')} disabled={!canEdit} />
                  <Radio value="window" label={t('Only in a window')} disabled={!canEdit} />
                </Stack>
              </Radio.Group>
              {on && (
                <SendWindowEditor value={window} onChange={setWindow} errors={errors} disabled={!canEdit} />
              )}
              {on && (
                <Text size="xs" c="dimmed">
                  {t("{{window}}, recipient's local time", { window: describeSendWindow(window) })}
                </Text>
              )}
              <Switch
                label={t('Single sends wait for the window too (OTP never does)')}
                checked={applyToSingle}
                onChange={(e) => setApplyToSingle(e.currentTarget.checked)}
                disabled={!canEdit}
              />
              {canEdit ? (
                <Group justify="flex-end">
                  <Button type="submit" loading={save.isPending}>
                    {t('Save')}
                  </Button>
                </Group>
              ) : (
                <Text size="sm" c="dimmed">
                  {t('An owner or admin can change the send window.')}
                </Text>
              )}
            </Stack>
          </form>
        )}
      </Card>
    </Stack>
  );
}
