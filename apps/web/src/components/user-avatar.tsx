import { Avatar, type AvatarProps } from '@mantine/core';

interface UserAvatarProps extends Omit<AvatarProps, 'src' | 'children' | 'name'> {
  name: string;
  /** Object URL of the picture; without one the avatar shows the name's initials. */
  src?: string | null;
}

export function UserAvatar({ name, src, ...props }: UserAvatarProps) {
  return <Avatar src={src ?? null} alt={`Picture of ${name}`} color="initials" name={name} {...props} />;
}
