import { curlFiles, type CurlFiles } from './curl-files';
import { curlRequest } from './curl-request';
import { readOptions } from './curl-getopt';
import { expandGlob } from './curl-glob';
import { curlSettings } from './curl-settings';
import type { CurlVariables } from './curl-variables';
import { splitCurlUrl, urlScheme, type CurlUrl } from './curl-url';
import { HttpEvidenceError, type HttpExchange } from './model';
import { cmdWords, looksLikeCmd, posixWords } from './shell-words';

export interface CurlReadOptions {
  /**
   * The contents of a file the command reads (`-d @file`, `-T file`), when the caller has it.
   * The app never reads the user's files for a pasted command: the body then says which file.
   */
  readFile?: (name: string) => string | null;
}

/** The words of a pasted command, by the shell that wrote it; null when it is not curl. */
function commandWords(command: string): string[] | null {
  const text = command.replace(/^\uFEFF/, '').replace(/^\s*(?:\$|>|PS [^>]*>)\s+/, '');
  const words = looksLikeCmd(text) ? cmdWords(text) : posixWords(text);
  const program = (words[0] ?? '').replace(/^.*[\\/]/, '').toLowerCase();
  return program === 'curl' || program === 'curl.exe' ? words.slice(1) : null;
}

/**
 * A curl command as the requests curl sends, one exchange per URL: the method as written, the
 * path bytes as written (dot segments removed as curl removes them, unless `--path-as-is`),
 * headers in curl's order with `-H` lines as typed, and the body bytes curl posts. curl's own
 * `User-Agent: curl/<version>` is left out (the version is not in the command). Throws
 * HttpEvidenceError naming the word that curl itself would refuse; null when it is not curl.
 */
export function parseCurlCommand(command: string, read: CurlReadOptions = {}): HttpExchange[] {
  const words = commandWords(command);
  if (!words) throw new HttpEvidenceError('the command is not curl');
  // `--next` (`-:`) starts a new set of options for the URLs after it.
  const groups: string[][] = [[]];
  for (const word of words) {
    if (word === '--next' || word === '-:') groups.push([]);
    else groups[groups.length - 1]?.push(word);
  }
  const vars: CurlVariables = new Map();
  const exchanges = groups.flatMap((group) => (group.length ? requestsOf(group, read, vars) : []));
  if (exchanges.length === 0) throw new HttpEvidenceError('the curl command has no URL');
  return exchanges;
}

function requestsOf(words: string[], read: CurlReadOptions, vars: CurlVariables): HttpExchange[] {
  const { options, urls } = readOptions(words);
  const files = curlFiles(read.readFile);
  const settings = curlSettings(options, urls, files, vars);
  if (urls.length === 0)
    throw new HttpEvidenceError(
      `the curl command has no URL${files.notes.length ? ` (${files.notes.join(' ')})` : ''}`,
    );

  // A URL curl would refuse to glob (`?id[0]=1` without -g, common in pasted URLs) is what the
  // researcher meant as typed: read so, with curl's reason in a note.
  const globbed = (u: string): string[] => {
    if (settings.globOff || settings.literalUrls.has(u)) return [u];
    try {
      return expandGlob(u);
    } catch (error) {
      if (!(error instanceof HttpEvidenceError)) throw error;
      files.note(`${error.message}; read as typed, as curl -g sends it.`);
      return [u];
    }
  };
  const expanded = urls.flatMap(globbed);
  // `-T '{a,b}'` globs too: the first request sends the first file.
  const upload = settings.upload !== null ? (globbed(settings.upload)[0] ?? null) : null;
  const viaHttpProxy =
    settings.proxy !== null && !settings.tunnel && !/^socks/i.test(settings.proxy);
  const requests: { url: CurlUrl; upload: string | null }[] = [];
  let refused: HttpEvidenceError | null = null;
  expanded.forEach((typed, index) => {
    const raw = ipfsUrl(typed, settings.ipfsGateway, files);
    try {
      if (raw !== null)
        requests.push({
          url: splitCurlUrl(raw, settings.pathAsIs, viaHttpProxy),
          upload: index === 0 ? upload : null,
        });
    } catch (error) {
      // A URL of another scheme is curl's business, not an HTTP request: said, and skipped.
      const scheme = urlScheme(raw ?? typed);
      if (!(error instanceof HttpEvidenceError) || scheme === 'http' || scheme === 'https')
        throw error;
      refused ??= error;
      files.note(
        `${raw ?? typed} is fetched by curl over ${urlScheme(raw ?? typed)}, not HTTP: not shown.`,
      );
    }
  });
  if (requests.length === 0 && refused) throw refused;
  return requests.map((r) => curlRequest(settings, r.url, r.upload, files));
}

/**
 * `ipfs://cid/path` and `ipns://name/path` as curl fetches them: from `--ipfs-gateway`
 * (`<gateway>/ipfs/cid/path`). Without one curl reads $IPFS_GATEWAY or ~/.ipfs/gateway, which a
 * paste does not show: noted, and null. Any other URL is returned as typed.
 */
function ipfsUrl(raw: string, gateway: string | null, files: CurlFiles): string | null {
  const m = /^(ipfs|ipns):\/\/([^/?#]+)(.*)$/i.exec(raw.trim());
  if (!m) return raw;
  if (gateway === null) {
    files.note(
      `${raw}: curl takes its IPFS gateway from $IPFS_GATEWAY or ~/.ipfs/gateway, which are not part of the paste.`,
    );
    return null;
  }
  return `${gateway.replace(/\/+$/, '')}/${(m[1] ?? '').toLowerCase()}/${m[2] ?? ''}${m[3] ?? ''}`;
}
