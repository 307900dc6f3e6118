import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Anchor,
  Center,
  Code,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  useComputedColorScheme,
} from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useT } from '@/lib/i18n';
import { useApiKeys } from '../api/api-keys';
import { rich } from '../components/rich';

/** Text colours with AA contrast (4.5:1) on the reference's backgrounds, light and dark. */
const CONTRAST_CSS = `
.light-mode {
  --scalar-color-2: #545454 !important; --scalar-color-3: #5f5f5f !important;
  --scalar-sidebar-color-2: #545454 !important; --scalar-sidebar-search-color: #5f5f5f !important;
  --scalar-color-green: #04704a !important; --scalar-color-blue: #005f99 !important;
  --scalar-color-orange: #a34000 !important; --scalar-color-red: #b80005 !important;
  --scalar-color-purple: #4b02bf !important; --scalar-color-yellow: #7a5d00 !important;
}
.dark-mode {
  --scalar-color-2: #c8c8c8 !important; --scalar-color-3: #b0b0b0 !important;
  --scalar-sidebar-color-2: #c8c8c8 !important; --scalar-sidebar-search-color: #b0b0b0 !important;
}
`;

/**
 * Tables of the descriptions (the error codes): the reference lays them out at fixed widths and breaks
 * words anywhere ("stat|us", "parameter_inva|lid"). Here columns take the width of their content,
 * headings stay whole, codes wrap only after an underscore (the <wbr> of `breakCodesAtUnderscores`),
 * the last column (prose) takes the rest and wraps at spaces (a word breaks only if it alone is wider
 * than the column), and a table still wider than its frame scrolls sideways inside itself.
 */
const TABLE_CSS = `
.scalar-app .markdown table {
  display: block; width: max-content; max-width: 100%; overflow-x: auto; table-layout: auto;
}
.scalar-app .markdown table th, .scalar-app .markdown table td { word-break: normal; overflow-wrap: normal; }
.scalar-app .markdown table th { white-space: nowrap; }
.scalar-app .markdown table td:last-child { overflow-wrap: anywhere; }
@media (max-width: 40em) {
  .scalar-app .markdown table th, .scalar-app .markdown table td { padding: 6px 8px; }
}
`;

/** Lets the codes in the reference's tables (`idempotency_key_reused`) wrap after an underscore only. */
function breakCodesAtUnderscores(root: HTMLElement) {
  for (const code of root.querySelectorAll<HTMLElement>('.markdown table code:not([data-wbr])')) {
    code.dataset.wbr = '';
    const parts = (code.textContent ?? '').split('_');
    if (parts.length < 2) continue;
    code.replaceChildren(
      ...parts.flatMap((part, i) => (i === 0 ? [part] : [document.createElement('wbr'), `_${part}`])),
    );
  }
}

/** The reference's script, served by the Wren server itself (the CSP allows only same-origin scripts). */
const SCALAR_SCRIPT = '/v1/reference/js/scalar.js';

interface ScalarInstance {
  destroy: () => void;
}
declare global {
  interface Window {
    Scalar?: { createApiReference: (el: HTMLElement, config: Record<string, unknown>) => ScalarInstance };
  }
}

let loading: Promise<void> | null = null;
function loadScalar(): Promise<void> {
  if (window.Scalar) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCALAR_SCRIPT;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading = null;
      reject(new Error('The API reference could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/**
 * The interactive API reference (Scalar) of /v1/openapi.json: every operation with its schema,
 * samples in curl, Node.js, Python and PHP for this server's URL, and a try-it console that calls
 * this server with a key the user pastes (no key is filled in for them).
 */
export default function ApiDocPage() {
  const t = useT();
  const host = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('light');
  const keys = useApiKeys();
  const prefix = keys.data?.find((k) => k.status === 'active')?.prefix;
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');

  useEffect(() => {
    let instance: ScalarInstance | null = null;
    let observer: MutationObserver | null = null;
    let cancelled = false;
    setState('loading');
    loadScalar()
      .then(() => {
        if (cancelled || !host.current || !window.Scalar) return;
        instance = window.Scalar.createApiReference(host.current, {
          url: '/v1/openapi.json',
          servers: [{ url: window.location.origin, description: t('This Wren server') }],
          darkMode: scheme === 'dark',
          forceDarkModeState: scheme,
          hideDarkModeToggle: true,
          withDefaultFonts: false,
          customCss: CONTRAST_CSS + TABLE_CSS,
          showDeveloperTools: 'never',
          telemetry: false,
          // No "Ask AI" chat (it would send the document to a third party) and no MCP generator.
          agent: { disabled: true },
          mcp: { disabled: true },
          hideClientButton: true,
          defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
          hiddenClients: {
            c: true,
            clojure: true,
            csharp: true,
            dart: true,
            fsharp: true,
            go: true,
            http: true,
            java: true,
            kotlin: true,
            objc: true,
            ocaml: true,
            powershell: true,
            r: true,
            ruby: true,
            rust: true,
            swift: true,
            js: true,
            shell: ['httpie', 'wget'],
            node: ['axios', 'ofetch', 'undici'],
            python: ['httpx_sync', 'httpx_async'],
            php: ['guzzle'],
          },
          // No token: the field stays empty for the user's own key (a made-up one would look real).
          authentication: { preferredSecurityScheme: 'apiKey' },
        });
        // The reference fetches the document and renders after this returns: the loading state stays
        // until its content is there.
        const target = host.current;
        const update = () => {
          breakCodesAtUnderscores(target);
          if (!cancelled && target.querySelector('h1, h2')) setState('ready');
        };
        observer = new MutationObserver(update);
        observer.observe(target, { childList: true, subtree: true });
        update();
      })
      .catch(() => !cancelled && setState('error'));
    return () => {
      cancelled = true;
      observer?.disconnect();
      instance?.destroy();
    };
  }, [scheme, t]);

  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm">
            {rich(t, 'Base URL {{url}}', { url: <Code>{window.location.origin}/v1</Code> })} ·{' '}
            {prefix ? (
              rich(t, 'key {{prefix}}', { prefix: <Code>{prefix}…</Code> })
            ) : (
              <Anchor component={Link} to={paths.api.create.getHref()} underline="always">
                {t('Create API key')}
              </Anchor>
            )}{' '}
            ·{' '}
            {rich(t, 'machine-readable: {{link}}', {
              link: (
                <Anchor href="/v1/openapi.json" target="_blank" rel="noreferrer" underline="always">
                  openapi.json
                </Anchor>
              ),
            })}
          </Text>
          <Group gap="md">
            <Anchor component={Link} to={paths.profile.apiDoc.getHref()} size="sm">
              {t('Quick start')}
            </Anchor>
            <Anchor component={Link} to={paths.smpp.doc.getHref()} size="sm">
              SMPP
            </Anchor>
          </Group>
        </Group>
        <Text size="sm" mt={4} data-testid="try-it-guidance">
          {t(
            'Paste one of your API keys (shown once when created) into Authentication to try requests. It stays in this browser tab.',
          )}
        </Text>
      </Paper>
      {state === 'error' && (
        <Alert color="red" title={t('The API reference could not be loaded')}>
          {rich(t, 'Reload the page to try again. The OpenAPI document itself is at {{path}}.', {
            path: <Code>/v1/openapi.json</Code>,
          })}
        </Alert>
      )}
      {/* The reference scrolls inside a viewport-high frame: its sidebar stays in view, and the
          sections it renders lazily never leave an empty page-long area below the footer. */}
      <Paper
        withBorder
        radius="md"
        pos="relative"
        style={{ overflow: 'hidden', display: state === 'error' ? 'none' : undefined }}
      >
        {/* Over the frame (and the reference's own sticky bars) while the script loads and the reference
            renders: never an empty box. */}
        {state === 'loading' && (
          <Center pos="absolute" inset={0} bg="var(--mantine-color-body)" style={{ zIndex: 100 }}>
            <Stack align="center" gap="sm" role="status" data-testid="api-reference-loading">
              <Loader size="md" />
              <Text size="sm">{t('Loading the API reference…')}</Text>
            </Stack>
          </Center>
        )}
        <div
          ref={host}
          data-testid="api-reference"
          tabIndex={0}
          role="region"
          aria-label={t('API reference')}
          style={{ height: 'max(480px, calc(100dvh - 260px))', overflowY: 'auto', position: 'relative' }}
        />
      </Paper>
    </Stack>
  );
}
