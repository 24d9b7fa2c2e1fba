import { flushSync } from 'react-dom';
import { create } from 'zustand';

/**
 * Whether the open report's print view is in the page. It is added only while a print runs
 * ("Save as PDF…", or the OS print dialog through `beforeprint`), so the screen never holds a
 * second copy of the report's text.
 */
export const usePrinting = create<{ printing: boolean; savedTo: string | null }>(() => ({
  printing: false,
  savedTo: null,
}));

function setPrinting(printing: boolean): void {
  // Printing lays the page out right after `beforeprint`: the view must be in the DOM by then.
  flushSync(() => usePrinting.setState({ printing }));
}

/**
 * Runs `print` (main's printToPDF of this window) with the print view in the page. Where the PDF
 * went is kept here, not in the screen that asked: printing lays the page out at the paper's
 * width, and the width's media queries may rebuild that screen meanwhile.
 */
export async function savePdf(
  print: () => Promise<{ savedTo: string } | null>,
): Promise<{ savedTo: string } | null> {
  usePrinting.setState({ savedTo: null });
  const result = await withPrintView(print);
  usePrinting.setState({ savedTo: result?.savedTo ?? null });
  return result;
}

async function withPrintView<T>(print: () => Promise<T>): Promise<T> {
  setPrinting(true);
  // One frame for layout and the fonts before main prints the window.
  await new Promise((resolve) => requestAnimationFrame(resolve));
  try {
    return await print();
  } finally {
    setPrinting(false);
  }
}

/** The OS print dialog (Ctrl+P, `window.print()`) prints the same view. */
export function followBrowserPrinting(): () => void {
  const before = () => setPrinting(true);
  const after = () => setPrinting(false);
  window.addEventListener('beforeprint', before);
  window.addEventListener('afterprint', after);
  return () => {
    window.removeEventListener('beforeprint', before);
    window.removeEventListener('afterprint', after);
  };
}
