import { parseArgs } from 'node:util';
import { ID_FORMATS, type IdNotation } from './message-id.js';
import type { DelayMs, SmscOptions, StatMix } from './options.js';
import { FINAL_STATS, type FinalStat } from './receipt.js';

/** "50" or "20-200" (a random range). */
export function parseDelay(value: string): DelayMs {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(value);
  if (!m) throw new Error(`invalid delay "${value}" (expected N or MIN-MAX)`);
  const min = Number(m[1]);
  return m[2] === undefined ? min : [min, Math.max(min, Number(m[2]))];
}

/** "DELIVRD=90,UNDELIV=5,EXPIRED=3,REJECTD=2" */
export function parseMix(value: string): StatMix {
  const mix: StatMix = {};
  for (const part of value.split(',').filter((p) => p.trim())) {
    const [key = '', weight = ''] = part.split('=').map((s) => s.trim());
    const stat = key.toUpperCase() as FinalStat;
    const n = Number(weight);
    if (!FINAL_STATS.includes(stat) || weight === '' || !Number.isFinite(n) || n < 0) {
      throw new Error(`invalid mix entry "${part}" (expected ${FINAL_STATS.join('|')}=WEIGHT)`);
    }
    mix[stat] = n;
  }
  return mix;
}

const NOTATIONS: readonly IdNotation[] = ['same', 'decimal', 'hex'];

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new Error(`invalid --${name} "${value}" (expected ${allowed.join('|')})`);
  }
  return value as T;
}

export const CLI_USAGE = `Usage: wren-smsc [options]
  --port N                  listen port (default 2775, 0 = random)
  --host H                  listen host (default 127.0.0.1)
  --system-id ID            accepted system_id (default wren)
  --password PW             accepted password (default wrenpass)
  --delay-ms N|MIN-MAX      receipt delay (default 50)
  --mix STAT=W,...          final state weights, e.g. DELIVRD=90,UNDELIV=5,EXPIRED=3,REJECTD=2
  --id-format F             message ids: seq-dec|seq-hex|random-hex|uuid|zero-padded|hex-resp-dec-receipt
                            (presets) or hex|hexUpper|decimal|decimalPadded|randomHex (default hex)
  --id-start N              first sequential id (default 1 with the seq presets, else Date.now()*1000)
  --id-pad N                width of decimalPadded ids (default 20; 10 with zero-padded)
  --receipt-id-notation N   same|decimal|hex: id: of the receipt text (default same)
  --receipt-tlv-id-notation N  same|decimal|hex|none: receipted_message_id TLV (default same)
  --max-tps N               per-bind submit limit
  --throttle-rate R         fraction 0..1 of submits answered ESME_RTHROTTLED
  --seed N                  PRNG seed
  --one-session-per-system-type  a new bind closes the older session of the same system_id+system_type
  --drop-after-bind-ms N    destroy each session N ms after it bound (a crash of that session)
  --bind-modes M,...        accepted bind types: tx,rx,trx (default all)
  --acceptd-receipts M      final|interim|contradictory: stat:ACCEPTD receipts (only, before the
                            final one, or only and with dlvrd:000 err:001)
  --lose-receipts-on-restart  a restart (SIGHUP) forgets the receipts not yet sent
  --restart-with-unanswered N  unanswered submits are forgotten when sessions close; N > 0 also holds
                            the responses until N submits wait, then restarts (once); 0 = forget only
  --help

SIGHUP restarts the simulator (every session is dropped).`;

export function parseCliArgs(argv: string[]): SmscOptions & { help?: boolean } {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'system-id': { type: 'string' },
      password: { type: 'string' },
      'delay-ms': { type: 'string' },
      mix: { type: 'string' },
      'id-format': { type: 'string' },
      'id-start': { type: 'string' },
      'id-pad': { type: 'string' },
      'receipt-id-notation': { type: 'string' },
      'receipt-tlv-id-notation': { type: 'string' },
      'max-tps': { type: 'string' },
      'throttle-rate': { type: 'string' },
      seed: { type: 'string' },
      'one-session-per-system-type': { type: 'boolean' },
      'drop-after-bind-ms': { type: 'string' },
      'bind-modes': { type: 'string' },
      'acceptd-receipts': { type: 'string' },
      'lose-receipts-on-restart': { type: 'boolean' },
      'restart-with-unanswered': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const num = (name: string, v: string): number => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n)) throw new Error(`invalid --${name} "${v}"`);
    return n;
  };
  const integer = (name: string, v: string, min: number): number => {
    const n = num(name, v);
    if (!Number.isSafeInteger(n) || n < min) throw new Error(`invalid --${name} "${v}"`);
    return n;
  };
  const opts: SmscOptions & { help?: boolean } = {
    port: values.port === undefined ? 2775 : num('port', values.port),
    host: values.host ?? '127.0.0.1',
    credentials: [{ systemId: values['system-id'] ?? 'wren', password: values.password ?? 'wrenpass' }],
  };
  if (values.help) opts.help = true;
  if (values['delay-ms'] !== undefined) opts.receiptDelayMs = parseDelay(values['delay-ms']);
  if (values.mix !== undefined) opts.statMix = parseMix(values.mix);
  if (values['id-format'] !== undefined) {
    opts.idFormat = oneOf('id-format', values['id-format'], ID_FORMATS);
  }
  if (values['id-start'] !== undefined) opts.messageIdStart = integer('id-start', values['id-start'], 0);
  if (values['id-pad'] !== undefined) opts.messageIdPadLength = integer('id-pad', values['id-pad'], 1);
  if (values['receipt-id-notation'] !== undefined) {
    opts.receiptIdNotation = oneOf('receipt-id-notation', values['receipt-id-notation'], NOTATIONS);
  }
  if (values['receipt-tlv-id-notation'] !== undefined) {
    opts.receiptTlvIdNotation = oneOf('receipt-tlv-id-notation', values['receipt-tlv-id-notation'], [
      ...NOTATIONS,
      'none',
    ] as const);
  }
  if (values['max-tps'] !== undefined) opts.maxTps = num('max-tps', values['max-tps']);
  if (values['throttle-rate'] !== undefined) {
    opts.throttle = { rate: num('throttle-rate', values['throttle-rate']) };
  }
  if (values.seed !== undefined) opts.seed = num('seed', values.seed);
  if (values['one-session-per-system-type']) opts.oneSessionPerSystemType = true;
  if (values['drop-after-bind-ms'] !== undefined) {
    opts.dropAfterBindMs = integer('drop-after-bind-ms', values['drop-after-bind-ms'], 1);
  }
  if (values['bind-modes'] !== undefined) {
    const names = { tx: 'transmitter', rx: 'receiver', trx: 'transceiver' } as const;
    opts.bindModes = values['bind-modes']
      .split(',')
      .map((m) => names[oneOf('bind-modes', m.trim(), ['tx', 'rx', 'trx'] as const)]);
  }
  if (values['acceptd-receipts'] !== undefined) {
    opts.acceptdReceipts = oneOf('acceptd-receipts', values['acceptd-receipts'], [
      'final',
      'interim',
      'contradictory',
    ] as const);
  }
  if (values['lose-receipts-on-restart']) opts.loseReceiptsOnRestart = true;
  const unanswered = values['restart-with-unanswered'];
  if (unanswered !== undefined) {
    const n = integer('restart-with-unanswered', unanswered, 0);
    opts.restartWithUnanswered = n === 0 ? true : n;
  }
  return opts;
}
