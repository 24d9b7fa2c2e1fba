import type { Command } from '../command';
import { EXIT } from '../exit-codes';
import { print, UsageError } from '../terminal';

const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const;
type Shell = (typeof SHELLS)[number];

/** Words after `bountydesk` (commands and their subcommands) and each command's options. */
export interface CompletionTable {
  top: string[];
  sub: Record<string, string[]>;
  options: Record<string, string[]>;
}

/** The completion script of a shell, made from the command table (nothing to keep in sync). */
export function completionScript(shell: Shell, t: CompletionTable): string {
  const opts = (key: string): string => (t.options[key] ?? []).join(' ');
  switch (shell) {
    case 'bash': {
      const cases = Object.keys(t.options)
        .map((key) => `    "${key}") opts="${opts(key)}" ;;`)
        .join('\n');
      const subs = Object.entries(t.sub)
        .map(
          ([g, words]) =>
            `    ${g}) COMPREPLY=($(compgen -W "${words.join(' ')}" -- "$cur")); return ;;`,
        )
        .join('\n');
      return `# bash completion for bountydesk: eval "$(bountydesk completion bash)"
_bountydesk() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" opts=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${t.top.join(' ')}" -- "$cur")); return
  fi
  if [ "$COMP_CWORD" -eq 2 ]; then
    case "\${COMP_WORDS[1]}" in
${subs}
    esac
  fi
  local key="\${COMP_WORDS[1]}"
  case "\${COMP_WORDS[2]}" in -*|"") ;; *) [ -n "\${COMP_WORDS[2]}" ] && key="\${COMP_WORDS[1]} \${COMP_WORDS[2]}" ;; esac
  case "$key" in
${cases}
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -o default -F _bountydesk bountydesk
`;
    }
    case 'zsh':
      return `#compdef bountydesk
# zsh completion for bountydesk: bountydesk completion zsh > "\${fpath[1]}/_bountydesk"
autoload -U bashcompinit && bashcompinit
${completionScript('bash', t)}`;
    case 'fish': {
      const lines = [
        '# fish completion for bountydesk: bountydesk completion fish > ~/.config/fish/completions/bountydesk.fish',
        'complete -c bountydesk -f',
        `complete -c bountydesk -n __fish_use_subcommand -a "${t.top.join(' ')}"`,
      ];
      for (const [g, words] of Object.entries(t.sub)) {
        lines.push(
          `complete -c bountydesk -n "__fish_seen_subcommand_from ${g}" -a "${words.join(' ')}"`,
        );
      }
      for (const [key, list] of Object.entries(t.options)) {
        const words = key.split(' ');
        const cond = words.map((w) => `__fish_seen_subcommand_from ${w}`).join('; and ');
        for (const o of list)
          lines.push(`complete -c bountydesk -n "${cond}" -l ${o.replace(/^--/, '')} -r -F`);
      }
      return `${lines.join('\n')}\n`;
    }
    case 'powershell': {
      const table = Object.entries(t.options)
        .map(([k, list]) => `  '${k}' = @(${list.map((o) => `'${o}'`).join(', ')})`)
        .join('\n');
      const subs = Object.entries(t.sub)
        .map(([g, words]) => `  '${g}' = @(${words.map((w) => `'${w}'`).join(', ')})`)
        .join('\n');
      return `# PowerShell completion for bountydesk: bountydesk completion powershell | Out-String | Invoke-Expression
$bountydeskTop = @(${t.top.map((w) => `'${w}'`).join(', ')})
$bountydeskSub = @{
${subs}
}
$bountydeskOptions = @{
${table}
}
Register-ArgumentCompleter -Native -CommandName bountydesk -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  $words = @($commandAst.CommandElements | Select-Object -Skip 1 | ForEach-Object { $_.ToString() })
  if ($wordToComplete) { $words = @($words | Select-Object -SkipLast 1) }
  $candidates = @()
  if ($words.Count -eq 0) { $candidates = $bountydeskTop }
  elseif ($words.Count -eq 1 -and $bountydeskSub.ContainsKey($words[0])) { $candidates = $bountydeskSub[$words[0]] }
  else {
    $key = if ($words.Count -ge 2 -and $bountydeskOptions.ContainsKey("$($words[0]) $($words[1])")) { "$($words[0]) $($words[1])" } else { $words[0] }
    if ($bountydeskOptions.ContainsKey($key)) { $candidates = $bountydeskOptions[$key] }
  }
  $candidates | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {
    [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
  }
}
`;
    }
  }
}

/** The table is handed in by main.ts (the command table imports this module). */
let tableOf: () => CompletionTable = () => ({ top: [], sub: {}, options: {} });
export function setCompletionTable(make: () => CompletionTable): void {
  tableOf = make;
}

export const COMPLETION_COMMAND: Command = {
  path: ['completion'],
  summary: 'Shell completion for bash, zsh, fish or PowerShell',
  args: '<bash|zsh|fish|powershell>',
  example: 'bountydesk completion bash >> ~/.bashrc',
  options: {},
  positionals: { min: 1, max: 1 },
  details: [
    'bash:        eval "$(bountydesk completion bash)" in ~/.bashrc',
    'zsh:         bountydesk completion zsh > "${fpath[1]}/_bountydesk"',
    'fish:        bountydesk completion fish > ~/.config/fish/completions/bountydesk.fish',
    'PowerShell:  bountydesk completion powershell | Out-String | Invoke-Expression (in $PROFILE)',
  ],
  run(ctx, _values, [shell = '']) {
    if (!(SHELLS as readonly string[]).includes(shell)) {
      throw new UsageError(`completion: one of ${SHELLS.join(', ')}.`);
    }
    print(ctx.io, completionScript(shell as Shell, tableOf()));
    return Promise.resolve(EXIT.ok);
  },
};
