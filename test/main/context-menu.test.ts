import { describe, expect, it } from 'vitest';
import {
  contextMenuTemplate,
  type ContextMenuItem,
  type ContextMenuParams,
} from '../../src/main/context-menu';
import {
  DICTIONARY_BASE_URL,
  isDictionaryDownload,
  setUpSpellChecker,
  spellCheckerLanguages,
} from '../../src/main/spellcheck';
import { isLocalResource } from '../../src/main/security';
import { EDITING_NOTHING_SELECTED, menuAsShown } from '../support/context-menu-shown';

const NOTHING: ContextMenuParams = {
  isEditable: false,
  selectionText: '',
  linkURL: '',
  misspelledWord: '',
  dictionarySuggestions: [],
  editFlags: { canCut: false, canCopy: false, canPaste: false, canSelectAll: true },
};

function recorder() {
  const done: string[] = [];
  return {
    done,
    actions: {
      replaceMisspelling: (w: string) => done.push(`replace ${w}`),
      addToDictionary: (w: string) => done.push(`add ${w}`),
      copyLink: (u: string) => done.push(`copy ${u}`),
    },
  };
}

const click = (items: ContextMenuItem[], label: string): void => {
  const item = items.find((i) => !('type' in i) && i.label === label);
  if (!item || 'type' in item || !('click' in item) || !item.click) {
    throw new Error(`no item ${label}`);
  }
  item.click();
};

describe('the context menu, from what Chromium says was right-clicked', () => {
  it('a misspelled word in the editor: its suggestions, "Add to dictionary", then the editing commands', () => {
    const { done, actions } = recorder();
    const items = contextMenuTemplate(
      {
        ...NOTHING,
        isEditable: true,
        misspelledWord: 'recieve',
        dictionarySuggestions: ['receive', 'relieve', 'reprieve', 'recite', 'receiver', 'revive'],
        editFlags: { canCut: false, canCopy: false, canPaste: true, canSelectAll: true },
      },
      actions,
    );
    expect(menuAsShown(items)).toEqual([
      'receive',
      'relieve',
      'reprieve',
      'recite',
      'receiver',
      '-',
      'Add “recieve” to dictionary',
      '-',
      ...EDITING_NOTHING_SELECTED,
    ]);
    click(items, 'receive');
    click(items, 'Add “recieve” to dictionary');
    expect(done).toEqual(['replace receive', 'add recieve']);
    // Cut, Copy, Paste and Select all are Electron's roles: they act on the focused page.
    expect(items.filter((i) => 'role' in i).map((i) => ('role' in i ? i.role : ''))).toEqual([
      'cut',
      'copy',
      'paste',
      'selectAll',
    ]);
  });

  it('a misspelled word without suggestions says so; outside an editable field spelling is not offered', () => {
    const { actions } = recorder();
    const none = contextMenuTemplate(
      { ...NOTHING, isEditable: true, misspelledWord: 'xsssqli' },
      actions,
    );
    expect(menuAsShown(none).slice(0, 3)).toEqual([
      'No spelling suggestions (off)',
      '-',
      'Add “xsssqli” to dictionary',
    ]);
    const readOnly = contextMenuTemplate(
      { ...NOTHING, misspelledWord: 'recieve', dictionarySuggestions: ['receive'] },
      actions,
    );
    expect(menuAsShown(readOnly)).toEqual(['Select all']);
  });

  it('a link the app would open: "Copy link" copies its address; a mailto link its address only', () => {
    const { done, actions } = recorder();
    const link = contextMenuTemplate(
      {
        ...NOTHING,
        linkURL: 'https://app.example.com/admin/invoices/1002',
        selectionText: 'invoice',
        editFlags: { ...NOTHING.editFlags, canCopy: true },
      },
      actions,
    );
    expect(menuAsShown(link)).toEqual(['Copy link', '-', 'Copy', 'Select all']);
    click(link, 'Copy link');
    const mail = contextMenuTemplate(
      { ...NOTHING, linkURL: 'mailto:security%40example.com?subject=Report' },
      actions,
    );
    click(mail, 'Copy e-mail address');
    expect(done).toEqual([
      'copy https://app.example.com/admin/invoices/1002',
      'copy security@example.com',
    ]);
    // What the app never opens is not offered either.
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'https://user:pw@x.example/']) {
      expect(menuAsShown(contextMenuTemplate({ ...NOTHING, linkURL: url }, actions))).toEqual([
        'Select all',
      ]);
    }
  });

  it('a selection in an editable field: Cut and Copy as Chromium allows them', () => {
    const { actions } = recorder();
    const items = contextMenuTemplate(
      {
        ...NOTHING,
        isEditable: true,
        selectionText: 'Bearer',
        editFlags: { canCut: true, canCopy: true, canPaste: false, canSelectAll: true },
      },
      actions,
    );
    expect(menuAsShown(items)).toEqual(['Cut', 'Copy', 'Paste (off)', '-', 'Select all']);
  });

  it('a very long misspelled "word" is cut short in the label, and added whole', () => {
    const { done, actions } = recorder();
    const word = 'a'.repeat(120);
    const items = contextMenuTemplate(
      { ...NOTHING, isEditable: true, misspelledWord: word },
      actions,
    );
    const add = items.find((i) => !('type' in i) && i.label.startsWith('Add'));
    expect(add && !('type' in add) ? add.label : '').toBe(`Add “${'a'.repeat(40)}…” to dictionary`);
    click(items, `Add “${'a'.repeat(40)}…” to dictionary`);
    expect(done).toEqual([`add ${word}`]);
  });
});

describe('the spell checker: languages from the OS, dictionaries from one documented source', () => {
  const AVAILABLE = ['de', 'de-DE', 'en-AU', 'en-GB', 'en-US', 'fr', 'fr-FR', 'pt-BR', 'pt-PT'];

  it('picks the OS languages Chromium has dictionaries for, in the user order, by language when the region has none', () => {
    expect(spellCheckerLanguages(['en-GB', 'de-AT', 'ja-JP'], AVAILABLE)).toEqual(['en-GB', 'de']);
    expect(spellCheckerLanguages(['pt_BR', 'fr-CA'], AVAILABLE)).toEqual(['pt-BR', 'fr']);
    expect(spellCheckerLanguages(['en-US', 'en-GB', 'fr', 'de', 'pt-PT'], AVAILABLE)).toEqual([
      'en-US',
      'en-GB',
      'fr',
    ]);
    // None the checker knows: US English, the language reports are read in.
    expect(spellCheckerLanguages(['ja-JP', 'zh-Hans-CN'], AVAILABLE)).toEqual(['en-US']);
    expect(spellCheckerLanguages([], [])).toEqual([]);
  });

  it('sets the dictionary source and the languages on Windows and Linux; nothing on macOS', () => {
    const calls: string[] = [];
    const session = {
      availableSpellCheckerLanguages: AVAILABLE,
      setSpellCheckerLanguages: (l: string[]) => calls.push(`languages ${l.join(',')}`),
      setSpellCheckerDictionaryDownloadURL: (u: string) => calls.push(`url ${u}`),
    };
    expect(setUpSpellChecker(session, ['fr-FR', 'en-GB'], 'linux')).toEqual(['fr-FR', 'en-GB']);
    expect(setUpSpellChecker(session, ['de-CH'], 'darwin')).toEqual([]);
    expect(calls).toEqual([`url ${DICTIONARY_BASE_URL}`, 'languages fr-FR,en-GB']);
  });

  it('lets through only a dictionary file from that source; every other request stays blocked', () => {
    expect(isDictionaryDownload(`${DICTIONARY_BASE_URL}en-us-10-1.bdic`)).toBe(true);
    for (const url of [
      `${DICTIONARY_BASE_URL}en-us-10-1.bdic?x=1`,
      `${DICTIONARY_BASE_URL}../evil.bdic`,
      `${DICTIONARY_BASE_URL}en-us-10-1.js`,
      'https://redirector.gvt1.com/other/en-us-10-1.bdic',
      'http://redirector.gvt1.com/edgedl/chrome/dict/en-us-10-1.bdic',
      'https://evil.example/edgedl/chrome/dict/en-us-10-1.bdic',
      'not a url',
    ]) {
      expect(isDictionaryDownload(url), url).toBe(false);
      expect(isLocalResource(url), url).toBe(false);
    }
  });
});
