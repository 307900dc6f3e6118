import { Fragment, type ReactNode } from 'react';
import type { Translate } from '@/lib/i18n';

/**
 * A translated sentence with React elements in it, so a translation can move them: `rich(t,
 * 'You are invited to {{account}}', { account: <b>…</b> })`. Each placeholder is filled with a
 * marker that the translated text is split on again (issue 47 item 4).
 */
export function rich(t: Translate, key: string, parts: Record<string, ReactNode>): ReactNode[] {
  const markers = Object.fromEntries(Object.keys(parts).map((name) => [name, `\uE000${name}\uE001`]));
  return t(key, markers)
    .split(/\uE000(\w+)\uE001/)
    .map((piece, i) => (i % 2 === 0 ? piece : <Fragment key={i}>{parts[piece]}</Fragment>));
}
