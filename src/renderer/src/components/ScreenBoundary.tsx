import { Component, type ErrorInfo, type ReactNode } from 'react';

interface ScreenBoundaryProps {
  /** What the screen shows, in words ("The program", "The report"). */
  screen: string;
  children: ReactNode;
}

interface ScreenBoundaryState {
  error: Error | null;
}

function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}

/**
 * One screen that fails to render says so in its own place: the navigation, the status bar and
 * every other screen stay usable (React unmounts the whole tree on an uncaught render error, which
 * would blank the window). Keyed by route where it is used, so going elsewhere starts afresh.
 */
export class ScreenBoundary extends Component<ScreenBoundaryProps, ScreenBoundaryState> {
  override state: ScreenBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ScreenBoundaryState {
    return { error: error instanceof Error ? error : new Error(messageOf(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // The console is the renderer's log (main keeps it with the app's logs in development).
    console.error(`${this.props.screen} could not be shown`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <section className="screen screen-failed" aria-labelledby="screen-failed-heading">
        <h1 id="screen-failed-heading">{this.props.screen} could not be shown</h1>
        <p>
          What failed: <code>{messageOf(error)}</code>
        </p>
        <p>
          The rest of the app still works: pick another screen above, or try this one again. Your
          drafts are kept on disk.
        </p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </section>
    );
  }
}
