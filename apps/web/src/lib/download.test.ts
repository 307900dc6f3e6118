import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeAdapter } from '@/test/fake-adapter';
import { downloadFile, fileNameFrom } from './download';
import { http } from './http/client';

describe('fileNameFrom', () => {
  it('prefers the UTF-8 name of filename*', () => {
    expect(
      fileNameFrom(
        `attachment; filename="Caf_contacts.csv"; filename*=UTF-8''Caf%C3%A9%20contacts.csv`,
        'x.csv',
      ),
    ).toBe('Café contacts.csv');
  });

  it('reads a quoted or bare filename', () => {
    expect(fileNameFrom('attachment; filename="report.csv"', 'x.csv')).toBe('report.csv');
    expect(fileNameFrom('attachment; filename=report.csv', 'x.csv')).toBe('report.csv');
  });

  it('falls back without a header, a name, or with a malformed escape', () => {
    expect(fileNameFrom(undefined, 'contacts.csv')).toBe('contacts.csv');
    expect(fileNameFrom('attachment', 'contacts.csv')).toBe('contacts.csv');
    expect(fileNameFrom(`attachment; filename="a.csv"; filename*=UTF-8''%E0%A4%A`, 'x.csv')).toBe('a.csv');
  });
});

describe('downloadFile', () => {
  const originalAdapter = http.defaults.adapter;
  afterEach(() => {
    http.defaults.adapter = originalAdapter;
    vi.restoreAllMocks();
  });

  function captureDownloads() {
    const saved: { name: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
    URL.createObjectURL = vi.fn(() => 'blob:wren/1');
    URL.revokeObjectURL = vi.fn();
    return saved;
  }

  it('fetches through the app client with the given parameters and saves under the server’s name', async () => {
    const saved = captureDownloads();
    const adapter = fakeAdapter(() => ({
      status: 200,
      data: new Blob(['a,b\n']),
      headers: { 'content-disposition': 'attachment; filename="sms-log-2026-01-02.csv"' },
    }));
    http.defaults.adapter = adapter;

    const name = await downloadFile('/api/sms/log/export', 'fallback.csv', { params: { status: 'failed' } });

    expect(name).toBe('sms-log-2026-01-02.csv');
    expect(adapter.calls).toHaveLength(1);
    expect(adapter.calls[0]).toMatchObject({ params: { status: 'failed' }, responseType: 'blob' });
    expect(saved).toEqual([{ name: 'sms-log-2026-01-02.csv', href: 'blob:wren/1' }]);
    expect(document.querySelector('a[download]')).toBeNull();
  });

  it('uses the fallback name when the server sends none', async () => {
    const saved = captureDownloads();
    http.defaults.adapter = fakeAdapter(() => ({ status: 200, data: new Blob(['x']) }));
    expect(await downloadFile('/api/x', 'contacts.csv')).toBe('contacts.csv');
    expect(saved.map((s) => s.name)).toEqual(['contacts.csv']);
  });
});
