import type { ConnectionDto, ConnectionUpdate } from '@wren/contracts';

/**
 * The connection form's values (connection-form-modal.tsx): from a stored connection, and to the
 * body the API takes; which fields are the collapsed "Advanced" ones, and the id notations offered.
 */

export type Lane = 'otp' | 'single' | 'bulk';
export type Rule = 'fail' | 'resend';
export const LANES: Lane[] = ['otp', 'single', 'bulk'];

export interface ConnectionFormValues {
  name: string;
  host: string;
  port: number | string;
  tls: boolean;
  tlsVerify: boolean;
  systemId: string;
  password: string;
  systemType: string;
  binds: number | string;
  bindMode: 'trx' | 'tx+rx';
  window: number | string;
  tps: number | string;
  prefixes: string[];
  /** '' = the server's SMSC_ID_NOTATION. */
  idNotation: string;
  receiptTimeoutMinutes: number | string;
  otpReceiptTimeoutMinutes: number | string;
  acceptd: string;
  unknownState: string;
  /** Off: the server's defaults for every lane. */
  laneRules: boolean;
  onUnanswered: Record<Lane, Rule>;
  flapSeconds: number | string;
  flapWarnAfter: number | string;
  reason: string;
}

export const valuesOf = (c: ConnectionDto | null): ConnectionFormValues => ({
  name: c?.name ?? '',
  host: c?.host ?? '',
  port: c?.port ?? 2775,
  tls: c?.tls ?? false,
  tlsVerify: c?.tlsVerify ?? true,
  systemId: c?.systemId ?? '',
  password: '',
  systemType: c?.systemType ?? '',
  binds: c?.binds ?? 1,
  bindMode: c?.bindMode ?? 'trx',
  window: c?.window ?? 50,
  tps: c?.tps ?? 0,
  prefixes: c?.prefixes ?? [],
  idNotation: c?.idNotation ?? '',
  receiptTimeoutMinutes: c?.receiptTimeoutMinutes ?? '',
  otpReceiptTimeoutMinutes: c?.otpReceiptTimeoutMinutes ?? '',
  acceptd: c?.acceptd ?? '',
  unknownState: c?.unknownState ?? '',
  laneRules: !!c?.onUnanswered,
  onUnanswered: c?.onUnanswered ?? { otp: 'fail', single: 'fail', bulk: 'fail' },
  flapSeconds: c?.flapSeconds ?? '',
  flapWarnAfter: c?.flapWarnAfter ?? '',
  reason: '',
});

/** Blank optional numbers and selects: null, the server's default. Numbers go as typed (it validates). */
const orNull = (v: number | string) => (v === '' ? null : v);

export function toBody(v: ConnectionFormValues): Omit<ConnectionUpdate, 'password'> {
  return {
    host: v.host,
    port: v.port,
    tls: v.tls,
    tlsVerify: v.tlsVerify,
    systemId: v.systemId,
    systemType: v.systemType,
    binds: v.binds,
    bindMode: v.bindMode,
    window: v.window,
    tps: v.tps,
    prefixes: v.prefixes,
    idNotation: v.idNotation || null,
    receiptTimeoutMinutes: orNull(v.receiptTimeoutMinutes),
    otpReceiptTimeoutMinutes: orNull(v.otpReceiptTimeoutMinutes),
    acceptd: (v.acceptd || null) as ConnectionUpdate['acceptd'],
    unknownState: (v.unknownState || null) as ConnectionUpdate['unknownState'],
    onUnanswered: v.laneRules ? v.onUnanswered : null,
    flapSeconds: orNull(v.flapSeconds),
    flapWarnAfter: orNull(v.flapWarnAfter),
    reason: v.reason,
  };
}

/** Fields inside the collapsed "Advanced" section: it opens when the server marks one of them. */
export const ADVANCED = new Set([
  'idNotation',
  'receiptTimeoutMinutes',
  'otpReceiptTimeoutMinutes',
  'acceptd',
  'unknownState',
  'onUnanswered',
  'flapSeconds',
  'flapWarnAfter',
]);
export const FIELDS = new Set([
  'name',
  'host',
  'port',
  'tls',
  'tlsVerify',
  'systemId',
  'password',
  'systemType',
  'binds',
  'bindMode',
  'window',
  'tps',
  'prefixes',
  'reason',
  ...ADVANCED,
]);

/** The id notations offered (SMSC_ID_NOTATION's forms; blank: the server's default). */
export const NOTATIONS = [
  'auto',
  'string',
  'dec',
  'hex',
  'hex/dec',
  'dec/hex',
  'string/hex',
  '0',
  '1',
  '2',
  '3',
];
