import type { LoginResponse, RegisterInput } from '@wren/contracts';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

let counter = 0;

/** A small HTTP client that behaves like the browser app: cookie jar, XSRF header, bearer token. */
export class ApiClient {
  readonly cookies = new Map<string, string>();
  accessToken: string | null = null;
  refreshToken: string | null = null;
  xsrf = true;

  constructor(readonly baseUrl: string) {}

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    opts: { headers?: Record<string, string>; raw?: RequestInit['body'] } = {},
  ): Promise<ApiResponse<T>> {
    const unsafe = !['GET', 'HEAD'].includes(method);
    if (unsafe && this.xsrf && !this.cookies.has('XSRF-TOKEN')) await this.request('GET', '/api/auth/xsrf');
    const headers: Record<string, string> = { ...opts.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (unsafe && this.xsrf && this.cookies.get('XSRF-TOKEN'))
      headers['x-xsrf-token'] = this.cookies.get('XSRF-TOKEN')!;
    if (this.accessToken && !headers.authorization) headers.authorization = `Bearer ${this.accessToken}`;
    let payload: RequestInit['body'] = opts.raw;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body: payload });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, ...v] = (pair ?? '').split('=');
      if (k) this.cookies.set(k.trim(), v.join('='));
    }
    const type = res.headers.get('content-type') ?? '';
    const parsed = type.includes('json')
      ? await res.json()
      : type.startsWith('image/') || type.includes('octet-stream')
        ? Buffer.from(await res.arrayBuffer())
        : await res.text();
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  get = <T = any>(path: string) => this.request<T>('GET', path);
  post = <T = any>(path: string, body?: unknown) => this.request<T>('POST', path, body);
  patch = <T = any>(path: string, body?: unknown) => this.request<T>('PATCH', path, body);
  delete = <T = any>(path: string) => this.request<T>('DELETE', path);

  useSession(r: { accessToken: string; refreshToken: string }) {
    this.accessToken = r.accessToken;
    this.refreshToken = r.refreshToken;
  }

  /** Registers a fresh, unique user and signs this client in as them. */
  async register(overrides: Partial<RegisterInput> = {}): Promise<LoginResponse & { password: string }> {
    counter += 1;
    const tag = `${process.pid}${counter}${Math.random().toString(36).slice(2, 6)}`;
    const input: RegisterInput = {
      username: `user${tag}`,
      name: `Test User ${counter}`,
      email: `user${tag}@example.com`,
      phone: '+14155550123',
      password: 'correct horse 42',
      ...overrides,
    };
    const res = await this.post<LoginResponse>('/api/auth/register', input);
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
    this.useSession(res.body);
    return { ...res.body, password: input.password };
  }
}
