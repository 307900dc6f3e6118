import { EventEmitter } from 'node:events';

/** Domain events published by services. The hub and webhooks subscribe; services never call them. */
export interface DomainEvents {
  'account.event': { accountId: string; kind: string; message: string };
  'balance.changed': { accountId: string };
  'sender.changed': { accountId: string };
  'group.changed': { accountId: string; groupId?: string };
  'template.changed': { accountId: string };
  /** Messages of an account changed status (coalesced per flush, not one event per message). */
  'messages.changed': { accountId: string; campaignIds: string[] };
  /**
   * New messages are ready to send: wakes the dispatcher at once instead of at its next poll;
   * `priority` (the most urgent among them) lets a busy worker make room for them.
   */
  'messages.queued': { priority?: number };
  'campaign.changed': { accountId: string; campaignId: string };
  /** An inbound SMS was stored for the account. */
  'inbound.received': { accountId: string };
  /** The account's suppression list changed (keyword or by hand). */
  'suppressions.changed': { accountId: string };
  /** The SMSC accepted parts and they are stored: receipts for them can be matched now. */
  'parts.stored': { connection: string; smscIds: string[] };
}

export class EventBus {
  private readonly emitter = new EventEmitter({ captureRejections: false });

  constructor() {
    this.emitter.setMaxListeners(100);
  }

  publish<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): void {
    this.emitter.emit(name, payload);
  }

  subscribe<K extends keyof DomainEvents>(name: K, handler: (payload: DomainEvents[K]) => void): () => void {
    this.emitter.on(name, handler);
    return () => this.emitter.off(name, handler);
  }
}
