import { startSmsc } from '@wren/smsc-simulator';

/** A simulated carrier for routing tests: receipts 20 ms after each submit, Wren's credentials. */
export const carrier = (opts: Parameters<typeof startSmsc>[0] = {}) =>
  startSmsc({
    port: 0,
    host: '127.0.0.1',
    receiptDelayMs: 20,
    credentials: [{ systemId: 'wren', password: 'wrenpass' }],
    ...opts,
  });

/** The SMSC_CONNECTIONS entry for a carrier started by `carrier`. */
export const carrierConnection = (
  name: string,
  port: number,
  prefixes: string[],
  more: { binds?: number; window?: number } = {},
) => ({
  name,
  host: '127.0.0.1',
  port,
  systemId: 'wren',
  password: 'wrenpass',
  binds: 1,
  prefixes,
  ...more,
});
