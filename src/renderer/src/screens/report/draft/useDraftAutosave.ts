import { useEffect, useLayoutEffect, useState, useSyncExternalStore, type RefObject } from 'react';
import type { DraftView } from '@shared/bridge/views';
import { bridge } from '../../../bridge';
import { reportError } from '../../../stores/notices';
import { onReportRead } from '../../../stores/report';
import { DraftAutosave } from './autosave';
import type { DescriptionHandle } from '../../../editor/DescriptionEditor';

/**
 * The draft editor's autosave (see `DraftAutosave`): one per open draft, fed with the engine's
 * view of the draft, flushed when the editor goes away or the window closes.
 */
export function useDraftAutosave(
  reportId: string,
  draft: DraftView,
  readOnly: boolean,
  editor: RefObject<DescriptionHandle | null>,
): { autosave: DraftAutosave; snapshot: DraftAutosave['snapshot'] } {
  const [autosave] = useState(
    () =>
      new DraftAutosave(draft, {
        save: (content, basedOn) => bridge.saveDraft(reportId, content, basedOn),
        // Until the editor is mounted (`connect` below): no description, nothing to save.
        readDescription: () => null,
        replaceDescription: () => undefined,
        readOnly: () => true,
        onError: reportError,
      }),
  );
  useEffect(() => {
    autosave.connect({
      // The editor's Markdown document is the draft's description.
      readDescription: () => editor.current?.markdown() ?? null,
      replaceDescription: (description) => editor.current?.replace(description),
      readOnly: () => readOnly,
    });
  }, [autosave, editor, readOnly]);
  const snapshot = useSyncExternalStore(
    (listener) => autosave.subscribe(listener),
    () => autosave.snapshot,
  );

  // The engine changed the draft (a merge, a file link, a resolution): adopt it while idle.
  useEffect(() => {
    autosave.incoming(draft);
  }, [autosave, draft]);

  // Each read of the report tells what the queue holds, even a read the same as shown.
  useEffect(
    () =>
      onReportRead((detail, startedAt) => {
        if (detail.id === reportId && detail.draft) autosave.sendState(detail.draft, startedAt);
      }),
    [autosave, reportId],
  );

  // What was typed, read while the editor is still there: a layout effect's clean-up runs before
  // any passive one, so before the description editor's clean-up destroys its view.
  useLayoutEffect(() => () => autosave.keepTyped(), [autosave]);

  // Save what is pending when the editor goes away (navigation, window closing). While a save is
  // refused (a full disk) the window asks before it closes: main turns this into its question.
  useEffect(() => {
    const onHide = (event: BeforeUnloadEvent): void => {
      const refused = autosave.snapshot.saveState === 'waiting';
      void autosave.flush();
      if (refused) {
        event.preventDefault();
        event.returnValue = '';
      }
    };
    window.addEventListener('beforeunload', onHide);
    return () => {
      window.removeEventListener('beforeunload', onHide);
      // A save refused by a full disk keeps being tried after the editor closed.
      void autosave.flush();
    };
  }, [autosave]);

  return { autosave, snapshot };
}
