/**
 * Opening a report so that its screen renders once, with it: the report is read first and the
 * screen changes when the read is in. Kept apart from the router and the list's store, which
 * both use it (a click in the list, Back and Forward).
 */
import { useReport } from './report';

/**
 * The report the list itself opened (a click, the arrow keys): its editor leaves the keyboard
 * focus in the list instead of taking it for the title. Not state: read once, as it opens.
 */
export const listSelection = {
  openedFromList: null as string | null,
  /** The report Back or Forward showed: the list's focus follows it to its row. */
  fromHistory: null as string | null,
  /**
   * The report just left for the list with none open (Back, "← All reports"): the list's focus
   * returns to its row, as a browser's Back returns to the link followed. On a narrow window the
   * list was gone while the report showed, and the focus would land on the screen's heading.
   */
  left: null as string | null,
};

/**
 * How long a click in the list waits for its report before the screen changes anyway (showing
 * it as loading). Within it the screen renders once, with the report, instead of a loading state
 * first and the report a few milliseconds later (a render and a frame more on every open).
 */
const READ_WAIT_MS = 100;
let lastOpened = 0;

/**
 * Reads a report before `show` changes the screen to it (within READ_WAIT_MS; after that the
 * screen changes and shows it loading), so the screen renders once, with it: a click in the list,
 * and Back or Forward to a report.
 */
export function showWhenRead(reportId: string, show: () => void, shown: () => string): void {
  const mine = ++lastOpened;
  // The screen this was asked on: a move elsewhere before the read is in (a click on "Account",
  // Back) is the user's last word, and the report must not take the screen back.
  // (By its hash, `shown`: the hashchange of an earlier open sets an equal route of its own.)
  const from = shown();
  // The location too: a link followed from outside (a notification, another window) changes it
  // at once, and its hashchange, which opens that report, may come after this read is in.
  const at = window.location.hash;
  // Only the last one opened: arrow keys held down open report after report.
  const wanted = (): boolean =>
    mine === lastOpened && shown() === from && window.location.hash === at;
  let done = false;
  const once = (): void => {
    if (done || !wanted()) return;
    done = true;
    show();
  };
  const wait = setTimeout(once, READ_WAIT_MS);
  useReport
    .getState()
    .readAhead(reportId)
    .then(
      (detail) => {
        clearTimeout(wait);
        if (!done && wanted()) useReport.getState().showRead(reportId, detail);
        once();
      },
      // The screen's own open takes the same read and reports its failure.
      () => {
        clearTimeout(wait);
        once();
      },
    );
}
