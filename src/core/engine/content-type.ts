import { extname } from 'node:path';

// The server keeps whatever type the client sends; a small table covers typical evidence.
const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.har': 'application/json',
  '.xml': 'application/xml',
  '.html': 'text/html',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.pcap': 'application/vnd.tcpdump.pcap',
};

export function contentTypeFor(name: string): string {
  return TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}
