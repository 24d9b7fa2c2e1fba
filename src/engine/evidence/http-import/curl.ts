import { curlFiles, type CurlFiles } from './curl-files';
import { curlRequest } from './curl-request';
import { readOptions } from './curl-getopt';
import { expandGlob } from './curl-glob';
import { curlSettings } from './curl-settings';
import type { CurlVariables } from './curl-variables';
import { splitCurlUrl, urlScheme, type CurlUrl } from './curl-url';
import { HttpEvidenceError, type HttpExchange } from './model';
import { looksLikePowerShell, powershellCommands, shellCommands } from './shell-script';
import { cmdWords, looksLikeCmd } from './shell-words';

export interface CurlReadOptions {
  /**
   * The contents of a file the command reads (`-d @file`, `-T file`), when the caller has it.
   * The app never reads the user's files for a pasted command: the body then says which file.
   */
  readFile?: (name: string) => string | null;
}

/** A shell prompt typed before a command (`$ curl …`, `PS C:\\> curl.exe …`). */
const PROMPT = /^([ \t]*)(?:\$|PS [^>\n]*>)[ \t]+(?=\S)/gm;

/** Words a command line may start with before the program it runs. */
const PREFIX = /^(?:sudo|time|command|nohup|exec|env)$/;

interface CurlLine {
  /** The words after `curl`. */
  args: string[];
  /** What curl reads as standard input, when the paste shows it (`echo … | curl -d @-`). */
  stdin: string | null;
}

const shorten = (text: string): string => (text.length > 80 ? `${text.slice(0, 77)}…` : text);

/** `echo`'s output for its words, as bash's builtin writes it (`-n`: no line break). */
function echoOutput(words: string[]): string {
  let args = words.slice(1);
  let newline = true;
  while (args[0] && /^-[neE]+$/.test(args[0])) {
    if (args[0].includes('n')) newline = false;
    args = args.slice(1);
  }
  return `${args.join(' ')}${newline ? '\n' : ''}`;
}

/**
 * The curl commands of a paste, by the shell that wrote it, and a note for each other command
 * (a shell line before or after, a pipe's source): a pasted script gives every request it makes.
 */
function curlLines(command: string): { lines: CurlLine[]; notes: string[] } {
  const text = command.replace(/^\uFEFF/, '');
  if (looksLikeCmd(text)) {
    const words = cmdWords(text.replace(/^\s*(?:>|PS [^>]*>)?\s*/, ''));
    const program = (words[0] ?? '').replace(/^.*[\\/]/, '').toLowerCase();
    if (program !== 'curl' && program !== 'curl.exe') return { lines: [], notes: [] };
    return { lines: [{ args: words.slice(1), stdin: null }], notes: [] };
  }
  const unprompted = text.replace(/^\s*>\s+/, '').replace(PROMPT, '$1');
  const commands = looksLikePowerShell(unprompted)
    ? powershellCommands(unprompted)
    : shellCommands(unprompted);
  const lines: CurlLine[] = [];
  const notes: string[] = [];
  const feeding = new Set(commands.map((c) => c.pipedFrom).filter((c) => c !== null));
  for (const c of commands) {
    let words = c.words;
    while (words[0] && (/^[A-Za-z_]\w*=/.test(words[0]) || PREFIX.test(words[0])))
      words = words.slice(1);
    const program = (words[0] ?? '').replace(/^.*[\\/]/, '').toLowerCase();
    if (program !== 'curl' && program !== 'curl.exe') {
      if (!feeding.has(c))
        notes.push(`Line ${c.line}: \`${shorten(c.text)}\` is not a curl command: left out.`);
      continue;
    }
    let stdin: string | null = null;
    const source = c.pipedFrom;
    if (source) {
      if (source.words[0] === 'echo') {
        stdin = echoOutput(source.words);
        notes.push(
          `Line ${source.line}: curl's standard input is the output of \`${shorten(source.text)}\`.`,
        );
      } else
        notes.push(
          `Line ${source.line}: curl's standard input is the output of \`${shorten(source.text)}\`, which is not part of the paste.`,
        );
    }
    const args = words.slice(1);
    const readsStdin = args.some((a) => a === '-' || a.endsWith('@-'));
    for (const r of c.redirects) {
      if (r.startsWith('here-document: ')) stdin ??= `${r.slice(15)}\n`;
      else if (/^\d*<(?!<)/.test(r) && readsStdin)
        notes.push(
          `Line ${c.line}: curl's standard input is read from \`${shorten(r)}\`, which is not part of the paste.`,
        );
    }
    lines.push({ args, stdin });
  }
  return { lines, notes };
}

/**
 * A curl command as the requests curl sends, one exchange per URL: the method as written, the
 * path bytes as written (dot segments removed as curl removes them, unless `--path-as-is`),
 * headers in curl's order with `-H` lines as typed, and the body bytes curl posts. curl's own
 * `User-Agent: curl/<version>` is left out (the version is not in the command). A pasted script
 * gives the requests of each of its curl commands; its other lines are named in a note. Throws
 * HttpEvidenceError naming the word that curl itself would refuse.
 */
export function parseCurlCommand(command: string, read: CurlReadOptions = {}): HttpExchange[] {
  const { lines, notes } = curlLines(command);
  if (lines.length === 0) throw new HttpEvidenceError('the command is not curl');
  const exchanges: HttpExchange[] = [];
  lines.forEach((line, index) => {
    const where = lines.length > 1 ? `curl command ${index + 1}: ` : '';
    try {
      exchanges.push(...commandExchanges(line, read));
    } catch (error) {
      if (error instanceof HttpEvidenceError && where)
        throw new HttpEvidenceError(`${where}${error.message}`);
      throw error;
    }
  });
  const last = exchanges[exchanges.length - 1];
  if (last && notes.length > 0) last.notes = [...(last.notes ?? []), ...notes];
  return exchanges;
}

function commandExchanges(line: CurlLine, read: CurlReadOptions): HttpExchange[] {
  // `--next` (`-:`) starts a new set of options for the URLs after it.
  const groups: string[][] = [[]];
  for (const word of line.args) {
    if (word === '--next' || word === '-:') groups.push([]);
    else groups[groups.length - 1]?.push(word);
  }
  const vars: CurlVariables = new Map();
  const exchanges = groups.flatMap((group) =>
    group.length ? requestsOf(group, read, vars, line.stdin) : [],
  );
  if (exchanges.length === 0) throw new HttpEvidenceError('the curl command has no URL');
  return exchanges;
}

function requestsOf(
  words: string[],
  read: CurlReadOptions,
  vars: CurlVariables,
  stdin: string | null,
): HttpExchange[] {
  const { options, urls } = readOptions(words);
  const files = curlFiles(read.readFile, stdin);
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
