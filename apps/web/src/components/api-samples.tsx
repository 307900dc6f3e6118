import { Button, Code, CopyButton, Group, ScrollArea, Stack, Tabs } from '@mantine/core';
import { iconOfSize } from './icons';
import { useT } from '@/lib/i18n';

const IconCopy = iconOfSize(16)('M8 8h12v12H8z', 'M16 8V4H4v12h4');

/** A sample of an API call in one language. */
export interface ApiSample {
  lang: 'curl' | 'node' | 'python' | 'php';
  label: string;
  code: string;
}

const LANGS: { lang: ApiSample['lang']; label: string }[] = [
  { lang: 'curl', label: 'curl' },
  { lang: 'node', label: 'Node.js' },
  { lang: 'python', label: 'Python' },
  { lang: 'php', label: 'PHP' },
];

/**
 * `POST /v1/messages` in curl, Node.js, Python and PHP, for the given base URL, with the key read
 * from WREN_API_KEY (the prefix shown says which key, so the secret never sits in a page).
 */
export function sendMessageSamples(baseUrl: string, keyPrefix: string): ApiSample[] {
  const url = `${baseUrl.replace(/\/$/, '')}/v1/messages`;
  const hint = `# WREN_API_KEY=${keyPrefix}… (your key)`;
  return [
    {
      lang: 'curl',
      label: 'curl',
      code: `${hint}
curl ${url} \\
  -H "Authorization: Bearer $WREN_API_KEY" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: $(od -An -N16 -tx1 /dev/urandom | tr -d ' \\n')" \\
  -d '{"to": "+14155550123", "text": "Your order has shipped"}'`,
    },
    {
      lang: 'node',
      label: 'Node.js',
      code: `// WREN_API_KEY=${keyPrefix}… (your key); Node 18+ has fetch built in
const res = await fetch('${url}', {
  method: 'POST',
  headers: {
    Authorization: \`Bearer \${process.env.WREN_API_KEY}\`,
    'Content-Type': 'application/json',
    'Idempotency-Key': crypto.randomUUID(),
  },
  body: JSON.stringify({ to: '+14155550123', text: 'Your order has shipped' }),
});
const result = await res.json();
if (!res.ok) throw new Error(\`\${result.error.code}: \${result.error.message}\`);
console.log(result.data[0].id, result.data[0].status);`,
    },
    {
      lang: 'python',
      label: 'Python',
      code: `${hint}
import os, uuid, requests

res = requests.post(
    "${url}",
    headers={
        "Authorization": f"Bearer {os.environ['WREN_API_KEY']}",
        "Idempotency-Key": str(uuid.uuid4()),
    },
    json={"to": "+14155550123", "text": "Your order has shipped"},
    timeout=10,
)
result = res.json()
if not res.ok:
    raise RuntimeError(f"{result['error']['code']}: {result['error']['message']}")
print(result["data"][0]["id"], result["data"][0]["status"])`,
    },
    {
      lang: 'php',
      label: 'PHP',
      code: `<?php
// WREN_API_KEY=${keyPrefix}… (your key)
$ch = curl_init('${url}');
curl_setopt_array($ch, [
    CURLOPT_POST => true,
    CURLOPT_RETURNTRANSFER => true,
    CURLOPT_HTTPHEADER => [
        'Authorization: Bearer ' . getenv('WREN_API_KEY'),
        'Content-Type: application/json',
        'Idempotency-Key: ' . bin2hex(random_bytes(16)),
    ],
    CURLOPT_POSTFIELDS => json_encode(['to' => '+14155550123', 'text' => 'Your order has shipped']),
]);
$result = json_decode(curl_exec($ch), true);
echo $result['data'][0]['id'] ?? $result['error']['message'];`,
    },
  ];
}

/**
 * One code block with a copy button. The button sits above the code, never over it, and long lines
 * scroll inside the block with a visible scrollbar (the page itself never scrolls sideways).
 */
export function CodeSample({ code, label }: { code: string; label: string }) {
  const t = useT();
  return (
    <Stack gap={4}>
      <Group justify="flex-end">
        <CopyButton value={code}>
          {({ copied, copy }) => (
            <Button
              size="compact-xs"
              variant="default"
              onClick={copy}
              leftSection={<IconCopy />}
              aria-label={copied ? t('Copied {{label}}', { label }) : t('Copy {{label}}', { label })}
            >
              {copied ? t('Copied') : t('Copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
      {/* Focusable: on a narrow screen, the keyboard scrolls a long line into view (axe: scrollable-region-focusable). */}
      <ScrollArea
        type="auto"
        scrollbars="x"
        offsetScrollbars="x"
        viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': label }}
      >
        {/* As wide as its longest line, so the scroll area (not the block itself) scrolls. */}
        <Code
          block
          style={{ whiteSpace: 'pre', overflow: 'visible', width: 'max-content', minWidth: '100%' }}
        >
          {code}
        </Code>
      </ScrollArea>
    </Stack>
  );
}

/** Samples of one call in the four languages, as tabs. */
export function ApiSampleTabs({ samples, name }: { samples: ApiSample[]; name: string }) {
  const t = useT();
  return (
    <Tabs defaultValue={samples[0]?.lang} keepMounted={false}>
      <Tabs.List aria-label={t('{{name}}: code samples', { name })}>
        {LANGS.filter((l) => samples.some((s) => s.lang === l.lang)).map((l) => (
          <Tabs.Tab key={l.lang} value={l.lang}>
            {l.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {samples.map((s) => (
        <Tabs.Panel key={s.lang} value={s.lang} pt="sm">
          <CodeSample code={s.code} label={t('{{name}} in {{language}}', { name, language: s.label })} />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
