import type { ReactNode } from 'react';
import { Anchor, Code, List, Paper, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import type { SmppServerInfo } from '@wren/contracts';
import { Link } from 'react-router';
import { CodeSample } from '@/components/api-samples';
import { InlineCode } from '@/components/inline-code';
import { ResponsiveTable } from '@/components/responsive-table';
import { paths } from '@/config/paths';
import { useT } from '@/lib/i18n';
import { useSmppServer } from '../api/smpp-accounts';
import { SmppServerEndpoints } from '../components/server-info';

/**
 * command_status values (SMPP 3.4 §5.1.3), as Wren's SMPP server answers them (docs/smpp-server.md).
 * The first column is English, shown through `t` (keys of locales/smpp).
 */
export const BIND_ERRORS: [string, string, string][] = [
  ['Unknown system_id', 'ESME_RINVSYSID', '0x0000000F'],
  ['Wrong password', 'ESME_RINVPASWD', '0x0000000E'],
  [
    'Disabled login, locked account, address outside the allowlist, bind mode not allowed, max binds open, too many failed binds in a minute',
    'ESME_RBINDFAIL',
    '0x0000000D',
  ],
  ['A second bind on the same connection', 'ESME_RALYBND', '0x00000005'],
];

export const SUBMIT_ERRORS: [string, string, string][] = [
  ['Invalid destination, or outside the account’s countries', 'ESME_RINVDSTADR', '0x0000000B'],
  ['Invalid source address', 'ESME_RINVSRCADR', '0x0000000A'],
  ['Sender ID not approved for the account', 'ESME_RINVSRCADR', '0x0000000A'],
  ['Insufficient balance', 'ESME_RSUBMITFAIL', '0x00000045'],
  ['Over the throughput limit (or an account rate limit)', 'ESME_RTHROTTLED', '0x00000058'],
  ['More submits unanswered than the window', 'ESME_RMSGQFUL', '0x00000014'],
  ['Message too long (more parts than Wren sends), odd UCS-2 length', 'ESME_RINVMSGLEN', '0x00000001'],
  ['data_coding not supported', 'ESME_RINVDCS', '0x00000104'],
  ['A bad UDH or part number', 'ESME_RINVESMCLASS', '0x00000043'],
  ['Recipient opted out', 'ESME_RX_R_APPN', '0x00000066'],
  ['Account locked', 'ESME_RX_P_APPN', '0x00000065'],
  ['submit_sm on a receiver bind, or before a bind', 'ESME_RINVBNDSTS', '0x00000004'],
  ['schedule_delivery_time set (not supported)', 'ESME_RINVSCHED', '0x00000061'],
  ['A body that does not parse', 'generic_nack ESME_RINVCMDLEN', '0x00000002'],
  ['An unknown command (replace_sm, data_sm, submit_multi…)', 'generic_nack ESME_RINVCMDID', '0x00000003'],
];

const RECEIPT =
  'id:1E240 sub:001 dlvrd:001 submit date:2612021530 done date:2612021531 stat:DELIVRD err:000 text:first 20 characters';

function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" mb="xs" id={id}>
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function StatusTable({ rows, label }: { rows: [string, string, string][]; label: string }) {
  const t = useT();
  return (
    <ResponsiveTable verticalSpacing="xs" aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('When')}</Table.Th>
          <Table.Th>command_status</Table.Th>
          <Table.Th>{t('Value')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map(([when, name, value]) => (
          <Table.Tr key={`${when}-${name}`}>
            <Table.Td data-label={t('When')}>{t(when)}</Table.Td>
            <Table.Td data-label="command_status">
              <Code>{name}</Code>
            </Table.Td>
            <Table.Td data-label={t('Value')}>
              <Code>{value}</Code>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ResponsiveTable>
  );
}

/** The node `smpp` package and Python smpplib, for this server's host and ports. */
export function smppSamples(info: SmppServerInfo | undefined) {
  const host = info?.host ?? '127.0.0.1';
  // Before the server's answer, and where TLS is on: the TLS port (3550 is the default).
  const tls = info === undefined ? 3550 : info.tlsPort;
  const plain = info?.port ?? 2775;
  const connect =
    tls !== null
      ? `// TLS (the certificate may be self-signed: see above); plain TCP: smpp.connect({ url: 'smpp://${host}:${plain}' })
const session = smpp.connect({ url: 'ssmpp://${host}:${tls}', rejectUnauthorized: false });
session.on('secureConnect', () => {`
      : `const session = smpp.connect({ url: 'smpp://${host}:${plain}' });
session.on('connect', () => {`;
  const node = `// npm i smpp
const smpp = require('smpp');

${connect}
  session.bind_transceiver({ system_id: process.env.SMPP_SYSTEM_ID, password: process.env.SMPP_PASSWORD }, (r) => {
    if (r.command_status !== 0) throw new Error(\`bind refused: \${r.command_status}\`);
    session.submit_sm(
      { destination_addr: '14155550123', dest_addr_ton: 1, dest_addr_npi: 1, data_coding: 0,
        registered_delivery: 1, short_message: 'Hello from SMPP' },
      (resp) => {
        if (resp.command_status === 0x58) return; // ESME_RTHROTTLED: slow down, submit again later
        console.log('message id', resp.message_id);
      },
    );
  });
});
// Receipts (esm_class 0x04) and inbound messages: answer every deliver_sm, or it is sent again.
session.on('deliver_sm', (pdu) => {
  console.log(pdu.receipted_message_id, pdu.message_state, pdu.short_message.message);
  session.send(pdu.response());
});
// Keep the bind alive.
setInterval(() => session.enquire_link(), 30_000);`;
  const python = `# pip install smpplib
import os, smpplib.client, smpplib.consts, smpplib.gsm

client = smpplib.client.Client('${host}', ${plain})

def on_deliver(pdu):
    # Receipts carry receipted_message_id and message_state; smpplib answers deliver_sm_resp itself.
    print(pdu.receipted_message_id, pdu.message_state, pdu.short_message)

client.set_message_received_handler(on_deliver)
client.set_message_sent_handler(lambda pdu: print('message id', pdu.message_id))
client.connect()
client.bind_transceiver(system_id=os.environ['SMPP_SYSTEM_ID'], password=os.environ['SMPP_PASSWORD'])

parts, coding, esm_class = smpplib.gsm.make_parts('Hello from SMPP')
for part in parts:
    client.send_message(
        source_addr_ton=smpplib.consts.SMPP_TON_ALNUM, source_addr='',  # empty: the default sender
        dest_addr_ton=smpplib.consts.SMPP_TON_INTL, destination_addr='14155550123',
        short_message=part, data_coding=coding, esm_class=esm_class, registered_delivery=True,
    )
client.listen()`;
  return { node, python };
}

/** The SMPP page of the in-app API docs (issue 37 item 6): where to bind, limits, receipts, errors. */
export default function SmppDocPage() {
  const t = useT();
  const server = useSmppServer();
  const samples = smppSamples(server.data);
  return (
    <Stack gap="lg" maw={960}>
      <Section title={t('Connect')} id="smpp-connect">
        <Text size="sm" mb="sm">
          {t('Wren is an SMSC for SMPP 3.4 clients: bind with the system_id and password of one of your')}{' '}
          <Anchor component={Link} to={paths.smpp.list.getHref()} underline="always">
            {t('SMPP accounts')}
          </Anchor>{' '}
          <InlineCode
            text={t(
              '(the password is shown once, when it is made). A submit goes through the same checks, prices and balance as `POST /v1/messages`, and `submit_sm_resp` comes only once the message is stored.',
            )}
          />
        </Text>
        <SmppServerEndpoints />
        <List size="sm" spacing={4} mt="sm">
          <List.Item>
            {t(
              'TLS: SMPP directly over TLS on its own port (no STARTTLS). The embedded default makes a self-signed certificate on its first start: a client must not verify it, or must pin it.',
            )}
          </List.Item>
          <List.Item>
            <InlineCode
              text={t(
                'Bind modes: `bind_transmitter` (submits), `bind_receiver` (receipts and inbound messages), `bind_transceiver` (both); each account allows some of them. A connection that has not bound within 60 seconds is closed; send `enquire_link` to keep a bind open.',
              )}
            />
          </List.Item>
          <List.Item>
            <InlineCode
              text={t(
                'Also supported: `enquire_link`, `unbind`, `query_sm` and `cancel_sm` (a message still queued, refunded). `data_coding` 0 (GSM 7-bit), 1 (ASCII), 3 (Latin-1) and 8 (UCS-2); long messages by UDH or `sar_*` parameters, or in `message_payload`.',
              )}
            />
          </List.Item>
          <List.Item>
            <InlineCode
              text={t(
                "Message ids are Wren's own, in the account's notation: decimal (`123456`) or hex (`1E240`).",
              )}
            />
          </List.Item>
        </List>
      </Section>

      <Section title={t('Limits')} id="smpp-limits">
        <List size="sm" spacing={4}>
          <List.Item>
            <InlineCode
              text={t(
                "Throughput: each account has a limit in messages per second over all its binds (with a second's burst). A submit over it is answered `ESME_RTHROTTLED` (0x58), never dropped: wait and submit it again.",
              )}
            />
          </List.Item>
          <List.Item>
            <InlineCode
              text={t(
                'Window: the requests one bind may have unanswered. One more is answered `ESME_RMSGQFUL` (0x14).',
              )}
            />
          </List.Item>
          <List.Item>
            <InlineCode
              text={t(
                'Max binds: open at once over all servers; one more bind is refused with `ESME_RBINDFAIL`. Allowed IP addresses, when set, refuse binds from anywhere else.',
              )}
            />
          </List.Item>
        </List>
      </Section>

      <Section title={t('Delivery receipts')} id="smpp-receipts">
        <Text size="sm" mb="xs">
          <InlineCode
            text={t(
              'Set `registered_delivery` to 1 for a receipt of every final state (2: failures only; add 0x10 for an intermediate `ENROUTE`). A receipt is a `deliver_sm` with `esm_class` 0x04, the TLVs `receipted_message_id` and `message_state`, and the standard text:',
            )}
          />
        </Text>
        <CodeSample label={t('receipt text')} code={RECEIPT} />
        <Text size="sm" mt="xs">
          <InlineCode
            text={t(
              '`stat` is `DELIVRD`, `UNDELIV`, `EXPIRED`, `REJECTD`, `DELETED`, `UNKNOWN` or `ENROUTE`; dates are `YYMMDDhhmm`. A concatenated message gets one receipt per part.',
            )}
          />
        </Text>
        <Text size="sm" mt="xs">
          <InlineCode
            text={t(
              "Store and forward: receipts and inbound messages go to any receiver or transceiver bound with the system_id. While none is bound they wait, and go out oldest first on the next bind. Each is sent again until a `deliver_sm_resp` with `ESME_ROK`; nothing is lost when a Wren server restarts. After the configured time (3 days by default) an unsent one expires: the account's page counts receipts waiting and expired.",
            )}
          />
        </Text>
      </Section>

      <Section title={t('Errors')} id="smpp-errors">
        <Text size="sm" mb="xs">
          {t('Refused binds (every refused bind is audited):')}
        </Text>
        <StatusTable rows={BIND_ERRORS} label={t('Bind errors')} />
        <Text size="sm" mt="md" mb="xs">
          <InlineCode text={t('Refused submits (`submit_sm_resp`), and malformed PDUs:')} />
        </Text>
        <StatusTable rows={SUBMIT_ERRORS} label={t('Submit errors')} />
      </Section>

      <Section title={t('Sample')} id="smpp-sample">
        <Text size="sm" mb="sm">
          <InlineCode text={t('Put the system_id and password in `SMPP_SYSTEM_ID` and `SMPP_PASSWORD`.')} />
        </Text>
        <Tabs defaultValue="node" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="node">Node.js (smpp)</Tabs.Tab>
            <Tabs.Tab value="python">Python (smpplib)</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="node" pt="sm">
            <CodeSample label={t('Node.js sample')} code={samples.node} />
          </Tabs.Panel>
          <Tabs.Panel value="python" pt="sm">
            <CodeSample label={t('Python sample')} code={samples.python} />
          </Tabs.Panel>
        </Tabs>
      </Section>
    </Stack>
  );
}
