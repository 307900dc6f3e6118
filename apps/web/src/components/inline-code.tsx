import { Fragment } from 'react';
import { Code } from '@mantine/core';

/**
 * Text with markdown-style `code` spans (as the API's error meanings in the contracts are written):
 * each backtick span becomes an inline <Code>, so no raw backtick is shown.
 */
export function InlineCode({ text }: { text: string }) {
  // split with a capture group: the code spans are at the odd indexes.
  const parts = text.split(/`([^`]+)`/);
  return parts.map((part, i) =>
    i % 2 === 1 ? <Code key={i}>{part}</Code> : <Fragment key={i}>{part}</Fragment>,
  );
}
