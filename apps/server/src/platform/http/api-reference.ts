import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

type Viewer = FastifyInstance;

let loads = 0;
/** How many times the viewer's package has been loaded in this process (tests: lazily, once). */
export const apiReferenceLoads = () => loads;

/** Response headers of the viewer's answer that the outer server sets itself. */
const HOP_HEADERS = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * The interactive API reference (@scalar/fastify-api-reference) under `routePrefix` of `app`, loaded
 * on its first request instead of at start: the package is a 4 MB script with its parsers, about
 * 48 MB of the server's memory that most nodes never use. The routes are declared now (Fastify adds
 * none after start) with the plugin's own URLs; the first call loads the plugin into a private
 * Fastify instance, and every call is answered by it through `inject`, so the page, its script and
 * the document copies are the plugin's own answers. The document is `app.swagger()`, as when the
 * plugin is registered on `app` itself.
 */
export function registerLazyApiReference(app: FastifyInstance, routePrefix: string) {
  const base = `${app.prefix}${routePrefix}`.replace(/\/+$/, '') as `/${string}`;
  let viewer: Promise<Viewer> | null = null;

  const load = async (): Promise<Viewer> => {
    loads += 1;
    const [{ default: Fastify }, { default: scalar }] = await Promise.all([
      import('fastify'),
      import('@scalar/fastify-api-reference'),
    ]);
    const inner = Fastify({ logger: false });
    await inner.register(scalar, {
      routePrefix: base,
      configuration: { content: () => app.swagger() as Record<string, unknown> },
    });
    await inner.ready();
    return inner;
  };

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    viewer ??= load().catch((err: unknown) => {
      viewer = null; // a failed load is tried again on the next request
      throw err;
    });
    const res = await (
      await viewer
    ).inject({
      method: 'GET',
      url: req.url,
      headers: { host: req.headers.host ?? 'localhost' },
    });
    reply.status(res.statusCode);
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined && !HOP_HEADERS.has(name.toLowerCase())) reply.header(name, value);
    }
    return reply.send(res.rawPayload);
  };

  const hidden = { hide: true };
  const get = (url: string, config?: { auth: 'public' }) =>
    app.route({ method: 'GET', url, schema: hidden, ...(config ? { config } : {}), handler });
  get(`${routePrefix}/openapi.json`);
  get(`${routePrefix}/openapi.yaml`);
  get(routePrefix); // redirects to the page (the trailing slash)
  get(`${routePrefix}/`);
  // The viewer's script, loaded by the web app's /api/doc screen, is public like the document.
  get(`${routePrefix}/js/scalar.js`, { auth: 'public' });
}
