import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';

/**
 * The SMPP listener's TLS key and certificate: the files SMPP_SERVER_TLS_CERT/KEY name, or else a
 * self-signed pair generated once and kept in the data dir (smpp-tls/), so `npm start` serves
 * SMPP over TLS with no setup (clients must not verify it, or pin it).
 */
export async function smppTlsCredentials(opts: {
  dataDir: string;
  certFile?: string;
  keyFile?: string;
  hostname: string;
}): Promise<{ key: string; cert: string; selfSigned: boolean }> {
  if (opts.certFile && opts.keyFile) {
    return {
      cert: readFileSync(opts.certFile, 'utf8'),
      key: readFileSync(opts.keyFile, 'utf8'),
      selfSigned: false,
    };
  }
  const dir = path.join(opts.dataDir, 'smpp-tls');
  const keyPath = path.join(dir, 'key.pem');
  const certPath = path.join(dir, 'cert.pem');
  if (existsSync(keyPath) && existsSync(certPath)) {
    return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8'), selfSigned: true };
  }
  const pems = await generate([{ name: 'commonName', value: opts.hostname }], {
    keySize: 2048,
    notAfterDate: new Date(Date.now() + 10 * 365 * 86_400_000),
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: opts.hostname },
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(keyPath, pems.private, { mode: 0o600 });
  writeFileSync(certPath, pems.cert);
  return { key: pems.private, cert: pems.cert, selfSigned: true };
}
