import { Badge, Text, VisuallyHidden, type TextProps } from '@mantine/core';
import { splitPlaceholders } from '../template-text';
import { useT } from '@/lib/i18n';

interface PlaceholderTextProps extends TextProps {
  text: string;
}

/** A message with each `{{placeholder}}` shown as a badge, keeping line breaks. */
export function PlaceholderText({ text, ...props }: PlaceholderTextProps) {
  const t = useT();
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
            title={t("Filled in with each contact's {{field}}", { field: piece.name })}
          >
            <VisuallyHidden>{`${t('placeholder')} `}</VisuallyHidden>
            {piece.name}
          </Badge>
        ),
      )}
    </Text>
  );
}
