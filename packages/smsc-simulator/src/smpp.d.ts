// Minimal typings for the untyped `smpp` package (v0.5.1), covering only what this package uses.
// The library puts PDU fields directly on the PDU object (pdu.system_id, pdu.short_message, ...);
// there is no `fields` bag. TLVs are plain properties too (pdu.receipted_message_id).
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  namespace smpp {
    /** Decoded short_message / message_payload: `message` is a string when data_coding is known. */
    interface DecodedMessage {
      udh?: Buffer[];
      message: string | Buffer;
    }
    /** Value accepted when encoding: a raw Buffer, a string, or `{ udh, message }` (udh incl. UDHL byte). */
    type MessageValue = Buffer | string | { udh?: Buffer; message: string | Buffer };

    interface PduOptions {
      command_status?: number;
      sequence_number?: number;
      [field: string]: unknown;
    }

    type PduCallback = (pdu: PDU) => void;

    class PDU {
      constructor(command: string, options?: PduOptions);
      command: string;
      command_id: number;
      command_length: number;
      command_status: number;
      sequence_number: number;
      system_id?: string;
      password?: string;
      system_type?: string;
      source_addr?: string;
      destination_addr?: string;
      esm_class?: number;
      registered_delivery?: number;
      data_coding?: number | null;
      short_message?: DecodedMessage | Buffer | string;
      message_payload?: DecodedMessage | Buffer | string;
      message_id?: string;
      receipted_message_id?: string;
      message_state?: number;
      sar_msg_ref_num?: number;
      sar_total_segments?: number;
      sar_segment_seqnum?: number;
      [field: string]: unknown;
      isResponse(): boolean;
      response(options?: PduOptions): PDU;
      toBuffer(): Buffer;
    }

    interface Shortcut {
      (options: PduOptions, responseCallback?: PduCallback, sendCallback?: PduCallback): boolean;
      (responseCallback?: PduCallback, sendCallback?: PduCallback): boolean;
    }

    class Session extends EventEmitter {
      socket: Socket;
      server?: Server;
      paused: boolean;
      send(pdu: PDU, responseCallback?: PduCallback, sendCallback?: PduCallback): boolean;
      submit_sm: Shortcut;
      deliver_sm: Shortcut;
      bind_transceiver: Shortcut;
      bind_transmitter: Shortcut;
      bind_receiver: Shortcut;
      enquire_link: Shortcut;
      unbind: Shortcut;
      query_sm: Shortcut;
      close(callback?: () => void): void;
      destroy(callback?: () => void): void;
      pause(): void;
      resume(): void;
      on(event: 'close' | 'connect', listener: () => void): this;
      on(event: 'error', listener: (err: Error) => void): this;
      on(event: string, listener: (pdu: PDU) => void): this;
      once(event: 'close' | 'connect', listener: () => void): this;
      once(event: 'error', listener: (err: Error) => void): this;
      once(event: string, listener: (pdu: PDU) => void): this;
    }

    class Server extends NetServer {
      sessions: Session[];
    }

    interface ConnectOptions {
      host?: string;
      port?: number;
      url?: string;
      auto_enquire_link_period?: number;
    }

    function createServer(options?: object, listener?: (session: Session) => void): Server;
    function connect(options: ConnectOptions | string, listener?: () => void): Session;

    const encodings: {
      ASCII: { match(value: string): boolean; encode(value: string): Buffer; decode(value: Buffer): string };
      UCS2: { match(value: string): boolean; encode(value: string): Buffer; decode(value: Buffer): string };
    };

    const ESME_ROK: number;
    const ESME_RINVMSGLEN: number;
    const ESME_RINVCMDID: number;
    const ESME_RINVBNDSTS: number;
    const ESME_RALYBND: number;
    const ESME_RSYSERR: number;
    const ESME_RINVMSGID: number;
    const ESME_RBINDFAIL: number;
    const ESME_RINVPASWD: number;
    const ESME_RINVSYSID: number;
    const ESME_RMSGQFUL: number;
    const ESME_RTHROTTLED: number;
    const ESME_RQUERYFAIL: number;
    const ESME_RX_T_APPN: number;
  }

  export = smpp;
}
