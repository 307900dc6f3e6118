import { EventEmitter } from 'node:events';
import type { SmscEvents } from './options.js';

/** The simulator's typed events (submit, bind, receipt, mo); a listener that throws is reported. */
export abstract class SmscEventSource {
  private readonly emitter = new EventEmitter();

  on<K extends keyof SmscEvents>(event: K, listener: SmscEvents[K]): this {
    this.emitter.on(event, listener);
    return this;
  }

  once<K extends keyof SmscEvents>(event: K, listener: SmscEvents[K]): this {
    this.emitter.once(event, listener);
    return this;
  }

  off<K extends keyof SmscEvents>(event: K, listener: SmscEvents[K]): this {
    this.emitter.off(event, listener);
    return this;
  }

  protected emit<K extends keyof SmscEvents>(event: K, ...args: Parameters<SmscEvents[K]>): void {
    try {
      this.emitter.emit(event, ...args);
    } catch (err) {
      this.report(err);
    }
  }

  protected abstract report(err: unknown): void;
}
