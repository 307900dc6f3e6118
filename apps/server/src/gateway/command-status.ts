/** How a submit_sm_resp command_status is handled. */
export type StatusClass = 'ok' | 'throttled' | 'transient' | 'permanent';

/** Flow control: the SMSC asks us to slow down. The bind pauses. */
const THROTTLED = new Set([
  0x14, // ESME_RMSGQFUL
  0x58, // ESME_RTHROTTLED
]);

/** Worth trying again later: nothing was accepted and the cause is on the SMSC side or temporary. */
const TRANSIENT = new Set([
  0x04, // ESME_RINVBNDSTS: our session state is off; the bind is recycled
  0x08, // ESME_RSYSERR
  0x64, // ESME_RX_T_APPN
  0xff, // ESME_RUNKNOWNERR
]);

/**
 * Everything else is permanent: invalid addresses (0x0A, 0x0B, 0x48-0x51), message length (0x01),
 * ESM class (0x43), submit failed (0x45), validity/schedule (0x61, 0x62), data coding (0x104),
 * permanent application error (0x65), receiver reject (0x66), prohibited (0x101), vendor codes...
 */
export function classifyStatus(status: number): StatusClass {
  if (status === 0) return 'ok';
  if (THROTTLED.has(status)) return 'throttled';
  if (TRANSIENT.has(status)) return 'transient';
  return 'permanent';
}

const NAMES: Readonly<Record<number, string>> = {
  0x01: 'ESME_RINVMSGLEN',
  0x02: 'ESME_RINVCMDLEN',
  0x03: 'ESME_RINVCMDID',
  0x04: 'ESME_RINVBNDSTS',
  0x05: 'ESME_RALYBND',
  0x08: 'ESME_RSYSERR',
  0x0a: 'ESME_RINVSRCADR',
  0x0b: 'ESME_RINVDSTADR',
  0x0d: 'ESME_RBINDFAIL',
  0x0e: 'ESME_RINVPASWD',
  0x0f: 'ESME_RINVSYSID',
  0x14: 'ESME_RMSGQFUL',
  0x43: 'ESME_RINVESMCLASS',
  0x45: 'ESME_RSUBMITFAIL',
  0x48: 'ESME_RINVSRCTON',
  0x49: 'ESME_RINVSRCNPI',
  0x50: 'ESME_RINVDSTTON',
  0x51: 'ESME_RINVDSTNPI',
  0x58: 'ESME_RTHROTTLED',
  0x61: 'ESME_RINVSCHED',
  0x62: 'ESME_RINVEXPIRY',
  0x64: 'ESME_RX_T_APPN',
  0x65: 'ESME_RX_P_APPN',
  0x66: 'ESME_RX_R_APPN',
  0xfe: 'ESME_RDELIVERYFAILURE',
  0xff: 'ESME_RUNKNOWNERR',
  0x101: 'ESME_RPROHIBITED',
  0x104: 'ESME_RINVDCS',
};

/** "ESME_RTHROTTLED (0x58)" or "0x400" for codes without a name. */
export function statusName(status: number): string {
  const hex = `0x${status.toString(16).padStart(2, '0')}`;
  const name = NAMES[status];
  return name ? `${name} (${hex})` : hex;
}
