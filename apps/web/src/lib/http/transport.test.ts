import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBusyCounter } from '../busy';
import { createHttpClient, type UploadProgress } from './client';
import { HttpError, MSG_CANCELED, MSG_UNREACHABLE } from './http-error';
import { urlWithParams } from './transport';

/**
 * The client on its real transports (fetch, and XMLHttpRequest for upload progress) against a real
 * HTTP server. The page (jsdom) is on another origin, so the server answers CORS like a proxy would.
 */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let base: string;
let closedBase: string;
const seen: Seen[] = [];

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('latin1')));
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', '*');
    res.setHeader('access-control-allow-methods', '*');
    res.setHeader('access-control-expose-headers', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    void read(req).then((body) => {
      const url = req.url ?? '';
      seen.push({ method: req.method ?? '', url, headers: req.headers, body });
      if (url.startsWith('/slow')) {
        setTimeout(() => res.writeHead(200).end('late'), 5_000);
        return;
      }
      if (url.startsWith('/file')) {
        res.writeHead(200, {
          'content-type': 'text/csv',
          'content-disposition': 'attachment; filename="a.csv"',
        });
        res.end('to,status\n+14155550100,delivered\n');
        return;
      }
      if (url.startsWith('/conflict')) {
        res.writeHead(409, {
          'content-type': 'application/json',
          'application-error': 'A group named "VIP %F0%9F%8C%9F" already exists',
        });
        res.end(JSON.stringify({ code: 'DUPLICATE', message: 'x' }));
        return;
      }
      if (url.startsWith('/invalid')) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errors: { name: ['Name is required'] } }));
        return;
      }
      if (url.startsWith('/text')) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('plain words');
        return;
      }
      if (url.startsWith('/empty')) {
        res.writeHead(204).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-total': '7' });
      res.end(JSON.stringify({ method: req.method, url, length: body.length }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port nobody listens on: the connection is refused.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedBase = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function client() {
  const log = vi.fn();
  const busy = createBusyCounter();
  return { http: createHttpClient({ log, busy, reload: vi.fn() }), log, busy };
}

const last = () => seen.at(-1)!;

describe('urlWithParams', () => {
  it('leaves out undefined and null, repeats arrays as key[], writes dates as ISO, keeps the query', () => {
    expect(
      urlWithParams('/api/sms/log?a=1#top', {
        status: 'failed',
        cursor: undefined,
        recipient: null,
        to: ['+1 415', 'x&y'],
        from: new Date('2026-01-02T03:04:05Z'),
        limit: 5,
        all: false,
      }),
    ).toBe(
      '/api/sms/log?a=1&status=failed&to%5B%5D=%2B1+415&to%5B%5D=x%26y&from=2026-01-02T03%3A04%3A05.000Z&limit=5&all=false',
    );
    expect(urlWithParams('/api/x', {})).toBe('/api/x');
    expect(urlWithParams('/api/x', undefined)).toBe('/api/x');
  });
});

describe('fetch transport', () => {
  it('sends query parameters, JSON bodies with their content type, and reads JSON, status and headers', async () => {
    const { http } = client();
    const got = await http.get<{ url: string }>(`${base}/items`, { params: { q: 'a b', page: 2 } });
    expect(got.status).toBe(200);
    expect(got.data.url).toBe('/items?q=a+b&page=2');
    expect(got.headers.get('x-total')).toBe('7');
    expect(last().headers.accept).toBe('application/json, text/plain, */*');

    await http.post(`${base}/items`, { name: 'Ünïcode 🌟', n: 1 });
    expect(last().method).toBe('POST');
    expect(last().headers['content-type']).toBe('application/json');
    expect(JSON.parse(Buffer.from(last().body, 'latin1').toString('utf8'))).toEqual({
      name: 'Ünïcode 🌟',
      n: 1,
    });

    await http.post(`${base}/items`);
    expect(last().headers['content-type']).toBeUndefined();
    expect(last().body).toBe('');
  });

  it('reads a text body as text and an empty body as ""', async () => {
    const { http } = client();
    expect((await http.get(`${base}/text`)).data).toBe('plain words');
    const empty = await http.delete(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.data).toBe('');
  });

  it('reads a file as a Blob, and a failed file request as its error message', async () => {
    const { http } = client();
    const file = await http.get<Blob>(`${base}/file`, { responseType: 'blob' });
    // (a Blob of the fetch in use: Node's here, not jsdom's)
    expect(file.data.type).toBe('text/csv');
    expect(await file.data.text()).toBe('to,status\n+14155550100,delivered\n');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="a.csv"');
    const error = await http.get(`${base}/invalid`, { responseType: 'blob' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, message: 'Name is required\n' });
  });

  it('rejects a failed status with the catalogue message, the decoded Application-Error first', async () => {
    const { http, log } = client();
    const error = (await http
      .post(`${base}/conflict`, { name: 'VIP' })
      .catch((e: unknown) => e)) as HttpError;
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 409,
      code: 'DUPLICATE',
      message: 'A group named "VIP 🌟" already exists',
    });
    expect(log).toHaveBeenCalledTimes(1);
    // validateStatus lets a caller take any status as an answer.
    const answer = await http.post(`${base}/conflict`, {}, { validateStatus: () => true });
    expect(answer.status).toBe(409);
    expect(answer.data).toEqual({ code: 'DUPLICATE', message: 'x' });
  });

  it('no server: status 0 and the connection message', async () => {
    const { http, log, busy } = client();
    const error = await http.get(`${closedBase}/x`).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 0, message: MSG_UNREACHABLE });
    expect(log).toHaveBeenCalledTimes(1);
    expect(busy.count()).toBe(0);
  });

  it('an aborted request rejects at once as canceled, without logging an error, and settles the busy count', async () => {
    const { http, log, busy } = client();
    const controller = new AbortController();
    const pending = http.get(`${base}/slow-fetch`, { signal: controller.signal }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(seen.some((s) => s.url === '/slow-fetch')).toBe(true));
    expect(busy.count()).toBe(1);
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 0, code: 'CANCELED', message: MSG_CANCELED });
    expect(log).not.toHaveBeenCalled();
    expect(busy.count()).toBe(0);
  });
});

describe('upload with progress (XMLHttpRequest)', () => {
  it('sends the form, reports progress up to the whole body, and reads the JSON answer', async () => {
    const { http } = client();
    const form = new FormData();
    form.append('file', new Blob(['x'.repeat(200_000)], { type: 'text/csv' }), 'big.csv');
    const progress: UploadProgress[] = [];
    const { data, status, headers } = await http.post<{ method: string; length: number }>(
      `${base}/upload`,
      form,
      { onUploadProgress: (event) => progress.push(event) },
    );
    expect(status).toBe(200);
    expect(data.method).toBe('POST');
    expect(data.length).toBeGreaterThan(200_000);
    expect(headers.get('x-total')).toBe('7');
    expect(last().headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(last().body).toContain('filename="big.csv"');
    expect(progress.length).toBeGreaterThan(0);
    const end = progress.at(-1)!;
    expect(end.loaded).toBe(end.total);
  });

  it('rejects a failed upload with the catalogue message', async () => {
    const { http } = client();
    const error = await http
      .post(`${base}/invalid`, new Blob(['a']), { onUploadProgress: () => undefined })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 400,
      message: 'Name is required\n',
      fieldErrors: { name: ['Name is required'] },
    });
  });

  it('an aborted upload rejects as canceled', async () => {
    const { http, log } = client();
    const controller = new AbortController();
    const pending = http
      .post(`${base}/slow-upload`, new Blob(['a']), {
        signal: controller.signal,
        onUploadProgress: () => undefined,
      })
      .catch((e: unknown) => e);
    await vi.waitFor(() => expect(seen.some((s) => s.url === '/slow-upload')).toBe(true));
    controller.abort();
    expect(await pending).toMatchObject({ status: 0, code: 'CANCELED' });
    expect(log).not.toHaveBeenCalled();
  });
});
