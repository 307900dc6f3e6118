// The smpp library ships no types; reuse the simulator's declaration of `module 'smpp'`.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../../../../packages/smsc-simulator/src/smpp.d.ts" />
import smpp from 'smpp';
import type { OutboundSms, SmsEncoding } from './sms-gateway';

export const DATA_CODING: Readonly<Record<SmsEncoding, number>> = { 'GSM-7': 0x00, 'UCS-2': 0x08 };
export const ESM_UDHI = 0x40;
const TON_INTERNATIONAL = 1;
const TON_ALPHANUMERIC = 5;
const NPI_UNKNOWN = 0;
const NPI_ISDN = 1;
/** short_message holds at most 254 octets; longer bodies go into the message_payload TLV. */
const SHORT_MESSAGE_MAX = 254;

export interface Address {
  addr: string;
  ton: number;
  npi: number;
}

/** Numeric sender (optionally '+'-prefixed) → international/ISDN; anything else → alphanumeric. */
export function sourceAddress(from: string): Address {
  const trimmed = from.trim();
  if (/^\+?\d+$/.test(trimmed))
    return { addr: trimmed.replace(/^\+/, ''), ton: TON_INTERNATIONAL, npi: NPI_ISDN };
  return { addr: trimmed, ton: TON_ALPHANUMERIC, npi: NPI_UNKNOWN };
}

export function destinationAddress(to: string): Address {
  return { addr: to.trim().replace(/^\+/, ''), ton: TON_INTERNATIONAL, npi: NPI_ISDN };
}

/** Why an SMS cannot be submitted at all (checked before routing), or undefined when it is fine. */
export function invalidReason(sms: OutboundSms): string | undefined {
  if (!/^\+[1-9]\d{1,14}$/.test(sms.to.trim())) return `destination is not E.164: ${sms.to}`;
  const from = sms.from.trim();
  if (from === '') return 'empty sender';
  if (!/^\+?\d+$/.test(from) && from.length > 11) return `alphanumeric sender longer than 11: ${from}`;
  if (sms.parts.length === 0) return 'no message parts';
  if (sms.parts.length > 255) return `too many parts: ${sms.parts.length}`;
  return undefined;
}

// Printable ASCII whose GSM 03.38 code equals its ASCII code (no @ $ _ ` [ ] { } \ ^ ~ |).
const GSM_SAME_AS_ASCII = /^[A-Za-z0-9 !"#%&'()*+,\-./:;<=>?\n\r]*$/;

/** GSM-7 unpacked (one septet per octet, extension characters escaped) or UCS-2 big-endian. */
export function encodeText(text: string, encoding: SmsEncoding): Buffer {
  if (encoding === 'UCS-2') return Buffer.from(text, 'utf16le').swap16();
  return GSM_SAME_AS_ASCII.test(text) ? Buffer.from(text, 'latin1') : smpp.encodings.ASCII.encode(text);
}

/** Concatenation UDH (incl. the UDHL byte): IEI 0x00, 8-bit reference, total, sequence (1-based). */
export function concatUdh(ref: number, total: number, seq: number): Buffer {
  return Buffer.from([0x05, 0x00, 0x03, ref & 0xff, total, seq]);
}

/** Relative validity period `YYMMDDhhmmss000R` (days capped at 99). */
export function relativeValidity(minutes: number): string {
  const total = Math.max(1, Math.round(minutes));
  const days = Math.min(99, Math.floor(total / 1440));
  const hours = days === 99 ? 0 : Math.floor((total % 1440) / 60);
  const mins = days === 99 ? 0 : total % 60;
  const p = (n: number): string => String(n).padStart(2, '0');
  return `0000${p(days)}${p(hours)}${p(mins)}00000R`;
}

/** submit_sm fields for every part of `sms`, in order. `ref` is the concatenation reference. */
export function buildSubmitSm(sms: OutboundSms, ref: number): smpp.PduOptions[] {
  const src = sourceAddress(sms.from);
  const dst = destinationAddress(sms.to);
  const total = sms.parts.length;
  const validity = sms.validityMinutes === undefined ? undefined : relativeValidity(sms.validityMinutes);
  return sms.parts.map((part, i) => {
    const body = encodeText(part, sms.encoding);
    const bytes = total > 1 ? Buffer.concat([concatUdh(ref, total, i + 1), body]) : body;
    const fields: smpp.PduOptions = {
      source_addr_ton: src.ton,
      source_addr_npi: src.npi,
      source_addr: src.addr,
      dest_addr_ton: dst.ton,
      dest_addr_npi: dst.npi,
      destination_addr: dst.addr,
      esm_class: total > 1 ? ESM_UDHI : 0,
      registered_delivery: 1,
      // Explicit: the library's default (null → detect, often IA5 = 1) is wrong for most SMSCs.
      data_coding: DATA_CODING[sms.encoding],
    };
    if (bytes.length <= SHORT_MESSAGE_MAX) fields.short_message = bytes;
    else {
      fields.short_message = Buffer.alloc(0);
      fields.message_payload = bytes;
    }
    if (validity) fields.validity_period = validity;
    return fields;
  });
}
