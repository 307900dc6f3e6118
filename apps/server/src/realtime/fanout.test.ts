import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { deliverInTurns, SOCKETS_PER_TURN } from './fanout';
import { accountRoom, type HubServer } from './hub-types';
import { connectHub, pushesSettled, until, type HubClient } from './test-client';

/**
 * A broadcast to a room is written to this node's sockets a few dozen per turn of the event loop,
 * so requests and database answers are served between turns instead of waiting behind one long
 * loop over every socket of the room (issue #17: push delay under load).
 */
const SOCKETS = SOCKETS_PER_TURN * 2 + 22;

/** Counts the frames written to the server-side sockets of `room`. */
async function countFrames(io: HubServer, room: string) {
  const sockets = await io.in(room).local.fetchSockets();
  let written = 0;
  for (const s of sockets) {
    const conn = (io.of('/').sockets.get(s.id) as unknown as { conn: NodeJS.EventEmitter }).conn;
    conn.on('packetCreate', (p: { type: string }) => {
      if (p.type === 'message') written += 1;
    });
  }
  return { sockets: sockets.length, written: () => written };
}

/** Emits, and reads how many frames were written by the time the event loop next turns. */
async function writtenInFirstTurn(emit: () => void, frames: { written: () => number }) {
  const before = frames.written();
  let atTurn = -1;
  setImmediate(() => (atTurn = frames.written() - before));
  emit();
  await until(() => atTurn >= 0, 5_000, 'the next turn');
  await until(() => frames.written() - before === SOCKETS, 10_000, 'every socket written');
  return atTurn;
}

const closers: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

describe('hub fan-out in turns', () => {
  it('the PostgreSQL adapter alone on its node writes a push to a large room over several turns', async () => {
    const node: TestServer = await startServer();
    closers.push(() => node.close());
    const login = await node.client().register();
    const clients: HubClient[] = await Promise.all(
      Array.from({ length: SOCKETS }, () => connectHub(node.url, login.accessToken)),
    );
    closers.push(() => clients.forEach((c) => c.close()));
    await pushesSettled(node.app);
    const frames = await countFrames(node.app.hub.io, accountRoom(login.user.accountId));
    expect(frames.sockets).toBe(SOCKETS);
    const received = { n: 0 };
    for (const c of clients) c.on('GroupListUpdated', () => (received.n += 1));

    const first = await writtenInFirstTurn(
      () => node.ctx.events.publish('group.changed', { accountId: login.user.accountId }),
      frames,
    );
    // Before: all of them in one synchronous loop, before the event loop turned.
    expect(first).toBeLessThanOrEqual(SOCKETS_PER_TURN);
    await until(() => received.n === SOCKETS, 10_000, 'the push on every socket');
    expect(node.app.hub.broadcasts()!.published).toBe(0);
  });

  it('the in-memory adapter (no DATABASE_URL) does the same, and keeps `except`', async () => {
    const http: HttpServer = createServer();
    const io: HubServer = new Server(http);
    deliverInTurns(io.of('/').adapter);
    io.on('connection', (socket) => void socket.join('room'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => void io.close(() => resolve())));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const clients: ClientSocket[] = await Promise.all(
      Array.from(
        { length: SOCKETS },
        () =>
          new Promise<ClientSocket>((resolve) => {
            const c = connect(url, { transports: ['websocket'], reconnection: false, forceNew: true });
            c.once('connect', () => resolve(c));
          }),
      ),
    );
    closers.push(() => clients.forEach((c) => c.close()));
    await until(async () => (await io.in('room').fetchSockets()).length === SOCKETS, 5_000, 'all joined');
    const frames = await countFrames(io, 'room');
    const received = { n: 0 };
    for (const c of clients) c.on('UserAccountUpdated', () => (received.n += 1));

    const first = await writtenInFirstTurn(() => io.to('room').emit('UserAccountUpdated'), frames);
    expect(first).toBeLessThanOrEqual(SOCKETS_PER_TURN);
    await until(() => received.n === SOCKETS, 10_000, 'the push on every socket');

    // A broadcast that leaves one socket out still does, whichever turn that socket falls in.
    const left = clients[SOCKETS - 1]!;
    let leftGot = 0;
    left.on('SenderIdUpdated', () => (leftGot += 1));
    let others = 0;
    for (const c of clients.slice(0, -1)) c.on('SenderIdUpdated', () => (others += 1));
    io.to('room').except(left.id!).emit('SenderIdUpdated');
    await until(() => others === SOCKETS - 1, 10_000, 'the push on the others');
    await new Promise((r) => setTimeout(r, 200));
    expect(leftGot).toBe(0);
  });
});
