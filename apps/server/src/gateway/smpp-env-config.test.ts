import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../platform/config';
import { cleanup, gateway, simulator, sms } from './smpp-test-kit';

// SMSC_BIND_MODE, SMSC_FLAP_* and the per-connection bindMode / flap settings of SMSC_CONNECTIONS, from
// the environment to a bound gateway (connections built as worker.ts builds them).

afterEach(cleanup);

const base = { JWT_SECRET: 'test-secret-0123456789' };

describe('bind mode and flap settings from the environment', () => {
  it('SMSC_BIND_MODE=tx+rx binds a transmitter + receiver pair', async () => {
    const smsc = await simulator({ bindModes: ['transmitter', 'receiver'] });
    const config = loadConfig({
      ...base,
      SMSC_HOST: '127.0.0.1',
      SMSC_PORT: String(smsc.port),
      SMSC_BINDS: '1',
      SMSC_BIND_MODE: 'tx+rx',
      SMSC_FLAP_SECONDS: '2.5',
    });
    expect(config.smscConnections).toMatchObject([{ bindMode: 'tx+rx', binds: 1 }]);
    expect(config.smpp).toMatchObject({ flapSeconds: 2.5, flapWarnAfter: 3 });
    const gw = await gateway(config.smscConnections.map((c) => ({ ...config.smpp, ...c })));
    expect(gw.status()[0]).toMatchObject({ bindMode: 'tx+rx', bound: 1 });
    expect(gw.status()[0]!.sessions.map((s) => [s.role, s.state])).toEqual([
      ['transmitter', 'bound'],
      ['receiver', 'bound'],
    ]);
    expect(await gw.submit(sms())).toMatchObject({ kind: 'accepted', connection: 'default' });
  });

  it('SMSC_CONNECTIONS: bindMode per connection, SMSC_BIND_MODE as the default, flap overrides', () => {
    const conn = { host: 'h', port: 2775, systemId: 'a', password: 'b' };
    const config = loadConfig({
      ...base,
      SMSC_BIND_MODE: 'tx+rx',
      SMSC_CONNECTIONS: JSON.stringify([
        { ...conn, name: 'uk', prefixes: ['+44'], bindMode: 'trx', flapSeconds: 30, flapWarnAfter: 5 },
        { ...conn, name: 'default' },
      ]),
    });
    expect(config.smscConnections).toMatchObject([
      { name: 'uk', bindMode: 'trx', flapSeconds: 30, flapWarnAfter: 5 },
      { name: 'default', bindMode: 'tx+rx' },
    ]);
    expect(config.smscConnections[1]).not.toHaveProperty('flapSeconds');
    expect(loadConfig(base).smpp).toMatchObject({ flapSeconds: 10, flapWarnAfter: 3 });
    expect(() => loadConfig({ ...base, SMSC_BIND_MODE: 'rx' })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ ...base, SMSC_CONNECTIONS: JSON.stringify([{ ...conn, name: 'x', bindMode: 'tx' }]) }),
    ).toThrow(ConfigError);
  });
});
