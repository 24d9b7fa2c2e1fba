import { join } from 'node:path';

/** Where the macOS menu item links the command (on the PATH of every shell by default). */
export const COMMAND_LINK = '/usr/local/bin/bountydesk';

export interface InstallDeps {
  /** `process.resourcesPath` of the packaged app (Contents/Resources). */
  resourcesPath: string;
  symlink(target: string, path: string): Promise<void>;
  /** Runs an AppleScript (`osascript -e`), for the administrator prompt. */
  osascript(script: string): Promise<void>;
  say(message: string, detail: string): Promise<unknown>;
}

/** A shell word in single quotes, inside an AppleScript string. */
function quoted(path: string): string {
  return `'${path.replace(/'/g, `'\\''`)}'`.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/**
 * macOS "Install ‘bountydesk’ command in PATH" (as editors do): a link in /usr/local/bin to the
 * launcher inside the app bundle; when that folder is not writable, the same link made through
 * the system's administrator prompt.
 */
export async function installCommand(deps: InstallDeps): Promise<boolean> {
  const target = join(deps.resourcesPath, 'cli', 'bountydesk');
  try {
    await deps.symlink(target, COMMAND_LINK);
  } catch {
    const shell = `mkdir -p /usr/local/bin && ln -sf ${quoted(target)} ${quoted(COMMAND_LINK)}`;
    try {
      await deps.osascript(`do shell script "${shell}" with administrator privileges`);
    } catch {
      await deps.say(
        'The command was not installed.',
        'The administrator prompt was cancelled or refused.',
      );
      return false;
    }
  }
  await deps.say(
    'The bountydesk command is installed.',
    `${COMMAND_LINK} runs it from any terminal; try: bountydesk --help`,
  );
  return true;
}
