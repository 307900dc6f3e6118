import { Alert, Code, Skeleton, Text } from '@mantine/core';
import type { SmppServerInfo } from '@wren/contracts';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { useSmppServer } from '../api/smpp-accounts';

/** "host:port" lines of the listeners that run (null port: not listening). */
export function endpointsOf(info: SmppServerInfo) {
  return [
    info.port !== null ? { label: 'Plain TCP', address: `${info.host}:${info.port}` } : null,
    info.tlsPort !== null ? { label: 'TLS', address: `${info.host}:${info.tlsPort}` } : null,
  ].filter((e) => e !== null);
}

/** Where clients bind: host and ports of Wren's SMPP server, and what to know about its certificate. */
export function SmppServerEndpoints() {
  const t = useT();
  const server = useSmppServer();
  if (server.isPending) return <Skeleton height={44} aria-label={t("Loading the SMPP server's address")} />;
  if (server.isError)
    return (
      <Alert color="red" variant="light" title={t("Could not load the SMPP server's address")}>
        {messageOf(server.error)}
      </Alert>
    );
  const endpoints = endpointsOf(server.data);
  if (!endpoints.length)
    return (
      <Alert color="yellow" variant="light" title={t('The SMPP server is not listening')}>
        {t('Neither port is open on this installation (SMPP_SERVER_PORT and SMPP_SERVER_TLS_PORT are off).')}
      </Alert>
    );
  return (
    <div data-testid="smpp-server-endpoints">
      {endpoints.map((e) => (
        <Text size="sm" key={e.label}>
          {t(e.label)}: <Code>{e.address}</Code>
        </Text>
      ))}
      {server.data.tlsPort !== null && server.data.selfSignedCertificate && (
        <Text size="xs" c="dimmed" mt={4}>
          {t('The TLS certificate is self-signed: clients must not verify it (or must pin it).')}
        </Text>
      )}
    </div>
  );
}
