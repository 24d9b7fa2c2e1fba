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

/** What the print view still loads (its evidence images), awaited before main prints. */
const loading: Promise<unknown>[] = [];

/** The print view's images take a moment (the engine reads the local copies): print after them. */
export function holdPrintFor(load: Promise<unknown>): void {
  loading.push(load);
}

/** Never wait for ever: a copy that does not come prints as its name (the evidence list). */
const IMAGE_WAIT_MS = 5_000;

const nextFrame = (): Promise<unknown> => new Promise((resolve) => requestAnimationFrame(resolve));

async function imagesReady(): Promise<void> {
  const deadline = new Promise((resolve) => setTimeout(resolve, IMAGE_WAIT_MS));
  await Promise.race([Promise.allSettled(loading.splice(0)), deadline]);
  // The images' state lands in a render after their URLs: then each is decoded before printing.
  await nextFrame();
  const images = [...document.querySelectorAll<HTMLImageElement>('.print-report img')];
  await Promise.race([Promise.allSettled(images.map((img) => img.decode())), deadline]);
}

async function withPrintView<T>(print: () => Promise<T>): Promise<T> {
  setPrinting(true);
  // Layout, the fonts and the evidence images before main prints the window.
  await nextFrame();
  try {
    await imagesReady();
    return await print();
  } finally {
    setPrinting(false);
  }
}

/** The OS print dialog (Ctrl+P, `window.print()`) prints the same view. */
export function followBrowserPrinting(): () => void {
  const before = () => setPrinting(true);
  const after = () => {
    // The OS dialog printed what had loaded; nothing waits on these any more.
    loading.length = 0;
    setPrinting(false);
  };
  window.addEventListener('beforeprint', before);
  window.addEventListener('afterprint', after);
  return () => {
    window.removeEventListener('beforeprint', before);
    window.removeEventListener('afterprint', after);
  };
}
