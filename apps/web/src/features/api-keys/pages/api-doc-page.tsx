import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Anchor,
  Code,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  useComputedColorScheme,
} from '@mantine/core';
import { API_KEY_MARK } from '@wren/contracts';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useApiKeys } from '../api/api-keys';

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
 * samples in curl, Node.js, Python and PHP for this server's URL and the user's key prefix, and a
 * try-it console that calls this server.
 */
export default function ApiDocPage() {
  const host = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('light');
  const keys = useApiKeys();
  const prefix = keys.data?.find((k) => k.status === 'active')?.prefix ?? `${API_KEY_MARK}YOUR_KEY`;
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');

  useEffect(() => {
    if (keys.isPending) return;
    let instance: ScalarInstance | null = null;
    let cancelled = false;
    loadScalar()
      .then(() => {
        if (cancelled || !host.current || !window.Scalar) return;
        instance = window.Scalar.createApiReference(host.current, {
          url: '/v1/openapi.json',
          servers: [{ url: window.location.origin, description: 'This Wren server' }],
          darkMode: scheme === 'dark',
          forceDarkModeState: scheme,
          hideDarkModeToggle: true,
          withDefaultFonts: false,
          customCss: CONTRAST_CSS,
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
          authentication: {
            preferredSecurityScheme: 'apiKey',
            securitySchemes: { apiKey: { token: `${prefix}…` } },
          },
        });
        setState('ready');
      })
      .catch(() => !cancelled && setState('error'));
    return () => {
      cancelled = true;
      instance?.destroy();
    };
  }, [scheme, prefix, keys.isPending]);

  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm">
            Base URL <Code>{window.location.origin}/v1</Code> · key <Code>{prefix}…</Code> · machine-readable:{' '}
            <Anchor href="/v1/openapi.json" target="_blank" rel="noreferrer" underline="always">
              openapi.json
            </Anchor>
          </Text>
          <Anchor component={Link} to={paths.profile.apiDoc.getHref()} size="sm">
            Quick start
          </Anchor>
        </Group>
        <Text size="xs" c="dimmed" mt={4}>
          To try a request, paste your whole key into the console&apos;s Authentication field; it stays in
          this browser tab.
        </Text>
      </Paper>
      {state === 'loading' && (
        <Group justify="center" p="xl">
          <Loader size="sm" />
          <Text size="sm">Loading the API reference…</Text>
        </Group>
      )}
      {state === 'error' && (
        <Alert color="red" title="The API reference could not be loaded">
          Reload the page to try again. The OpenAPI document itself is at <Code>/v1/openapi.json</Code>.
        </Alert>
      )}
      {/* The reference scrolls inside a viewport-high frame: its sidebar stays in view, and the
          sections it renders lazily never leave an empty page-long area below the footer. */}
      <Paper
        withBorder
        radius="md"
        style={{ overflow: 'hidden', display: state === 'error' ? 'none' : undefined }}
      >
        <div
          ref={host}
          data-testid="api-reference"
          tabIndex={0}
          role="region"
          aria-label="API reference"
          style={{ height: 'max(480px, calc(100dvh - 260px))', overflowY: 'auto', position: 'relative' }}
        />
      </Paper>
    </Stack>
  );
}
