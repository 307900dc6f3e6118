import { Badge, Text, VisuallyHidden, type TextProps } from '@mantine/core';
import { splitPlaceholders } from '../template-text';

interface PlaceholderTextProps extends TextProps {
  text: string;
}

/** A message with each `{{placeholder}}` shown as a badge, keeping line breaks. */
export function PlaceholderText({ text, ...props }: PlaceholderTextProps) {
  return (
    <Text component="div" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} {...props}>
      {splitPlaceholders(text).map((piece, i) =>
        piece.kind === 'text' ? (
          <span key={i}>{piece.text}</span>
        ) : (
          <Badge
            key={i}
            component="span"
            variant="light"
            color="grape"
            radius="sm"
            tt="none"
            size="md"
            mx={2}
            style={{ verticalAlign: 'baseline' }}
            data-placeholder={piece.name}
            title={`Filled in with each contact's ${piece.name}`}
          >
            <VisuallyHidden>placeholder </VisuallyHidden>
            {piece.name}
          </Badge>
        ),
      )}
    </Text>
  );
}
