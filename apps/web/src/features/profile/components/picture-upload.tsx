import { useRef, useState } from 'react';
import { Button, FileButton, Group, Progress, Stack, Text } from '@mantine/core';
import { PICTURE_TYPES, type User } from '@wren/contracts';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useDeletePicture } from '../api/delete-picture';
import { pictureProblem, useUploadPicture } from '../api/upload-picture';
import { ProfileAvatar } from './profile-avatar';

/** Picture preview, file chooser with the client-side checks, and an upload progress bar. */
export function PictureUpload({ user }: { user: User }) {
  const t = useT();
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useUploadPicture(setProgress);
  const remove = useDeletePicture();
  const resetRef = useRef<() => void>(null);

  const choose = async (file: File | null) => {
    resetRef.current?.(); // so that choosing the same file again is noticed
    if (!file) return;
    const issue = pictureProblem(file);
    setProblem(issue);
    if (issue) return;
    setProgress(0);
    try {
      await upload.mutateAsync(file);
      toast.success(t('Your picture has been updated.'));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setProgress(null);
    }
  };

  const removePicture = async () => {
    setProblem(null);
    try {
      await remove.mutateAsync(user);
      toast.success(t('Your picture has been removed.'));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <Group gap="lg" align="center" wrap="nowrap">
      <ProfileAvatar user={user} size={88} radius={88} />
      <Stack gap={6} style={{ flex: 1 }}>
        <Group gap="sm">
          <FileButton
            resetRef={resetRef}
            onChange={(file) => void choose(file)}
            accept={PICTURE_TYPES.join(',')}
          >
            {(props) => (
              <Button {...props} variant="default" loading={upload.isPending}>
                {t('Choose picture')}
              </Button>
            )}
          </FileButton>
          {user.hasPicture && (
            <Button
              variant="subtle"
              color="red"
              onClick={() => void removePicture()}
              loading={remove.isPending}
            >
              {t('Remove')}
            </Button>
          )}
          <Text size="sm" c="dimmed">
            {t('PNG, JPEG, WebP or GIF, up to 2 MB.')}
          </Text>
        </Group>
        {progress !== null && (
          <Progress value={progress} size="lg" striped animated aria-label={t('Upload progress')} />
        )}
        {problem && (
          <Text size="sm" c="red" role="alert">
            {problem}
          </Text>
        )}
      </Stack>
    </Group>
  );
}
