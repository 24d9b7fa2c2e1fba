import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

export interface StaticServer {
  /** `http://127.0.0.1:<port>` without a trailing slash. */
  origin: string;
  /** The folder served. */
  root: string;
  /** Paths requested, in order (the tests check nothing else was asked for). */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Serves the built renderer on 127.0.0.1 (module scripts do not load from file://). It adds no
 * header of its own that would change the page's policy: the CSP is the shipped `<meta>`.
 */
export async function serveDir(root: string): Promise<StaticServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname);
    const path = normalize(join(root, decodeURIComponent(url.pathname)));
    const file = url.pathname === '/' ? join(root, 'index.html') : path;
    if (!file.startsWith(root + sep) || req.method !== 'GET') {
      res.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (bytes) => {
        res.writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-store',
        });
        res.end(bytes);
      },
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    root,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
