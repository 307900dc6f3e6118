import type { AvatarProps } from '@mantine/core';
import type { User } from '@wren/contracts';
import { UserAvatar } from '@/components/user-avatar';
import { useObjectUrl } from '@/lib/use-object-url';
import { usePicture } from '../api/get-picture';

interface ProfileAvatarProps extends Omit<AvatarProps, 'src' | 'children' | 'name'> {
  user: Pick<User, 'name' | 'hasPicture'>;
}

/** The user's picture, or their initials when there is none. */
export function ProfileAvatar({ user, ...props }: ProfileAvatarProps) {
  const picture = usePicture(user.hasPicture);
  const src = useObjectUrl(user.hasPicture ? picture.data : null);
  return <UserAvatar name={user.name} src={src} {...props} />;
}
