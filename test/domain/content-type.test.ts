import { describe, expect, it } from 'vitest';
import { contentTypeFor } from '../../src/engine/commands/content-type';

describe('the content type of an evidence file', () => {
  it.each([
    ['screenshot.PNG', 'image/png'],
    ['photo.jpeg', 'image/jpeg'],
    ['capture.har', 'application/json'],
    ['request.http', 'text/plain'],
    ['server.log', 'text/plain'],
    ['notes.md', 'text/markdown'],
    ['burp-items.xml', 'application/xml'],
    ['traffic.pcap', 'application/vnd.tcpdump.pcap'],
    ['poc.html', 'text/html'],
    ['payload', 'application/octet-stream'],
    ['.bashrc', 'application/octet-stream'],
    ['archive.unknownext', 'application/octet-stream'],
  ])('%s → %s', (name, type) => {
    expect(contentTypeFor(name)).toBe(type);
  });
});
