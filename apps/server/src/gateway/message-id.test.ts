import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  addEvidence,
  canonicalId,
  decideNotation,
  DIGITS_EVIDENCE,
  emptyEvidence,
  parseIdNotation,
  provisionalNotation,
  receiptKey,
  type IdNotation,
} from './message-id';

/** How real SMSCs write the same message's id in submit_sm_resp and in the receipt. */
const PEERS: {
  name: string;
  resp: (n: number) => string;
  receipt: (n: number) => string;
  notation: IdNotation;
}[] = [
  { name: 'sequential decimal', resp: String, receipt: String, notation: { submit: 'dec', receipt: 'dec' } },
  {
    name: 'sequential hex',
    resp: (n) => n.toString(16),
    receipt: (n) => n.toString(16),
    notation: { submit: 'hex', receipt: 'hex' },
  },
  {
    name: 'zero-padded decimal response, bare receipt',
    resp: (n) => String(n).padStart(10, '0'),
    receipt: String,
    notation: { submit: 'dec', receipt: 'dec' },
  },
  {
    name: 'upper-case hex response, decimal receipt',
    resp: (n) => n.toString(16).toUpperCase(),
    receipt: String,
    notation: { submit: 'hex', receipt: 'dec' },
  },
  {
    name: 'decimal response, hex receipt',
    resp: String,
    receipt: (n) => n.toString(16),
    notation: { submit: 'dec', receipt: 'hex' },
  },
];

describe('parseIdNotation', () => {
  it('reads auto, one radix, submit/receipt pairs and Kannel msg-id-type numbers', () => {
    expect(parseIdNotation('auto')).toBe('auto');
    expect(parseIdNotation('')).toBe('auto');
    expect(parseIdNotation('string')).toEqual({ submit: 'string', receipt: 'string' });
    expect(parseIdNotation('HEX/dec')).toEqual({ submit: 'hex', receipt: 'dec' });
    expect(parseIdNotation('0')).toEqual({ submit: 'dec', receipt: 'dec' });
    expect(parseIdNotation('1')).toEqual({ submit: 'hex', receipt: 'dec' });
    expect(parseIdNotation('2')).toEqual({ submit: 'dec', receipt: 'hex' });
    expect(parseIdNotation('3')).toEqual({ submit: 'hex', receipt: 'hex' });
    for (const bad of ['4', 'octal', 'dec/hex/dec', 'dec/']) expect(parseIdNotation(bad)).toBeUndefined();
  });
});

describe('receiptKey', () => {
  it('gives exactly the stored key of its own message for every peer, and never another', () => {
    for (const peer of PEERS) {
      const stored = new Map<string, number>();
      for (let n = 1; n <= 20_000; n++) stored.set(canonicalId(peer.resp(n)), n);
      expect(stored.size, peer.name).toBe(20_000);
      for (let n = 1; n <= 20_000; n++) {
        const key = receiptKey(peer.receipt(n), peer.notation);
        expect(key && stored.get(key), `${peer.name}: receipt ${peer.receipt(n)}`).toBe(n);
      }
    }
  });

  it('does not convert a hex-looking id under a decimal rule (no guessed key)', () => {
    expect(receiptKey('1a', { submit: 'hex', receipt: 'dec' })).toBeUndefined();
    expect(receiptKey('xyz', { submit: 'dec', receipt: 'hex' })).toBeUndefined();
    expect(receiptKey('  ', { submit: 'string', receipt: 'string' })).toBeUndefined();
  });

  it('keeps opaque ids as text, ignoring case and surrounding space', () => {
    const id = randomUUID();
    expect(receiptKey(` ${id.toUpperCase()} `, { submit: 'string', receipt: 'string' })).toBe(
      canonicalId(id),
    );
  });

  it('handles ids beyond Number.MAX_SAFE_INTEGER', () => {
    const big = 2n ** 80n + 12345n;
    expect(receiptKey(big.toString(10), { submit: 'hex', receipt: 'dec' })).toBe(big.toString(16));
  });
});

describe('learning the notation', () => {
  const learn = (peer: (typeof PEERS)[number], count: number, start = 1) => {
    const e = emptyEvidence();
    const ids = Array.from({ length: count }, (_, i) => start + i);
    addEvidence(e, 'submit', ids.map(peer.resp));
    addEvidence(e, 'receipt', ids.map(peer.receipt));
    return e;
  };

  it('learns each peer from its first ids', () => {
    for (const peer of PEERS) {
      const decided = decideNotation(learn(peer, DIGITS_EVIDENCE));
      // Same-radix pairs match exactly alike whichever radix is learned.
      const expected =
        peer.notation.submit === peer.notation.receipt
          ? { submit: peer.notation.submit, receipt: peer.notation.submit }
          : peer.notation;
      expect(decided, peer.name).toEqual(expected);
    }
  });

  it('learns large time-based ids as quickly', () => {
    const start = Date.now() * 1000;
    for (const peer of PEERS) {
      const decided = decideNotation(learn(peer, DIGITS_EVIDENCE, start));
      expect(decided, peer.name).toBeDefined();
    }
  });

  it('treats any non-hex id as an opaque string at once', () => {
    const e = emptyEvidence();
    addEvidence(e, 'submit', [randomUUID()]);
    expect(decideNotation(e)).toEqual({ submit: 'string', receipt: 'string' });
  });

  it('learns random hex ids', () => {
    const ids = Array.from({ length: 40 }, () => randomBytes(6).toString('hex'));
    const e = emptyEvidence();
    addEvidence(e, 'submit', ids);
    addEvidence(e, 'receipt', ids);
    expect(decideNotation(e)).toEqual({ submit: 'hex', receipt: 'hex' });
  });

  it('does not conclude decimal from a few digit-only ids, and parks when the sides disagree', () => {
    const e = emptyEvidence();
    addEvidence(e, 'submit', ['1', '2', '3']);
    addEvidence(e, 'receipt', ['1', '2', '3']);
    expect(decideNotation(e)).toBeUndefined();
    expect(provisionalNotation(e)).toEqual({ submit: 'string', receipt: 'string' });
    // Hex letters in responses only: the receipts may be decimal; exact matching could cross.
    addEvidence(e, 'submit', ['1a']);
    expect(decideNotation(e)).toBeUndefined();
    expect(provisionalNotation(e)).toBeUndefined();
  });
});
