import type { HubServer } from './hub-types';

/** A namespace's Socket.IO adapter (in-memory, or the PostgreSQL one) and its broadcast options. */
export type NamespaceAdapter = ReturnType<HubServer['of']>['adapter'];
export type BroadcastOptions = Parameters<NamespaceAdapter['broadcast']>[1];
type Broadcast = (packet: Parameters<NamespaceAdapter['broadcast']>[0], opts: BroadcastOptions) => unknown;

/** Sockets written per turn of the event loop when a broadcast is delivered on this node. */
export const SOCKETS_PER_TURN = 64;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Delivers a broadcast to this node's sockets SOCKETS_PER_TURN at a time, letting the event loop
 * run between turns. Socket.IO writes a room's frames in one synchronous loop: an account with 250
 * open tabs held the event loop for about 8 ms per push, and at 60 sends a second (bench:hub, 10k
 * sockets) the sends' own HTTP requests and database answers queued behind those loops (send
 * latency p99 127 ms). Each turn is one broadcast to the turn's socket ids (every socket is in the
 * room of its own id), so the packet is encoded once per turn and `except` still applies.
 */
export async function broadcastInTurns(
  adapter: Pick<NamespaceAdapter, 'sockets'>,
  broadcast: Broadcast,
  packet: Parameters<Broadcast>[0],
  opts: BroadcastOptions,
) {
  const ids = await adapter.sockets(opts.rooms);
  if (ids.size <= SOCKETS_PER_TURN) {
    broadcast(packet, opts);
    return;
  }
  let turn = new Set<string>();
  let first = true;
  const deliver = async () => {
    if (!first) await nextTurn();
    first = false;
    broadcast(packet, { ...opts, rooms: turn });
    turn = new Set();
  };
  for (const id of ids) {
    turn.add(id);
    if (turn.size === SOCKETS_PER_TURN) await deliver();
  }
  if (turn.size > 0) await deliver();
}

/** Makes an in-memory adapter (a single node: every broadcast is local) deliver in turns. */
export function deliverInTurns(adapter: NamespaceAdapter) {
  const broadcast: Broadcast = adapter.broadcast.bind(adapter);
  adapter.broadcast = (packet, opts) => {
    void broadcastInTurns(adapter, broadcast, packet, opts);
  };
}
