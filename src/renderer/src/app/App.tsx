import { lazy, Suspense, useEffect } from 'react';
import { useSession } from '../stores/session';
import { useRouter } from '../stores/router';
import { useReports } from '../stores/reports';
import { useTheme } from './theme';
import { useBridgeEvents } from './useBridgeEvents';
import { Shell } from './Shell';
import { routeHash, type Route } from '../lib/routes';
import { ScreenBoundary } from '../components/ScreenBoundary';
import { FirstRun } from '../screens/first-run/FirstRun';
import { ProgramsScreen } from '../screens/programs/ProgramsScreen';
import { ReportsScreen } from '../screens/reports/ReportsScreen';
import { AccountScreen } from '../screens/account/AccountScreen';
import { PayoutsScreen } from '../screens/payouts/PayoutsScreen';

// A program's page renders its policy as Markdown: that renderer is a chunk of its own, loaded
// when a program (or a report) opens, not before the first screen paints.
const ProgramScreen = lazy(() =>
  import('../screens/programs/ProgramScreen').then((m) => ({ default: m.ProgramScreen })),
);

/** What each screen shows, in words (the error boundary names it). */
const SCREEN_NAMES: { readonly [N in Route['name']]: string } = {
  programs: 'The programs',
  program: 'The program',
  reports: 'The reports',
  report: 'The report',
  payouts: 'The payouts',
  account: 'The account',
};

function Screen({ route }: { route: Route }) {
  switch (route.name) {
    case 'programs':
      return <ProgramsScreen />;
    case 'program':
      return (
        <Suspense fallback={<p className="loading">Loading program…</p>}>
          <ProgramScreen
            key={route.programId}
            programId={route.programId}
            section={route.section ?? null}
          />
        </Suspense>
      );
    // One workspace for both: the list stays (and keeps its place) as reports open beside it.
    case 'reports':
      return <ReportsScreen selectedId={null} />;
    case 'report':
      return <ReportsScreen selectedId={route.reportId} />;
    case 'payouts':
      return <PayoutsScreen />;
    case 'account':
      return <AccountScreen />;
  }
}

/**
 * The screen of the route, behind its own error boundary: a new route starts afresh, except
 * within the reports workspace, whose list stays as reports open beside it (the open report has
 * a boundary of its own there).
 */
function CurrentScreen() {
  const route = useRouter((s) => s.route);
  const workspace = route.name === 'reports' || route.name === 'report';
  return (
    <ScreenBoundary
      key={workspace ? 'reports' : routeHash(route)}
      screen={workspace ? SCREEN_NAMES.reports : SCREEN_NAMES[route.name]}
    >
      <Screen route={route} />
    </ScreenBoundary>
  );
}

export function App() {
  useTheme();
  useBridgeEvents();
  const phase = useSession((s) => s.phase);
  const loadAccount = useSession((s) => s.loadAccount);
  const refreshStatus = useSession((s) => s.refreshStatus);
  useEffect(() => {
    // The reports list's first rows are asked for beside the account, not after its answer.
    const { route } = useRouter.getState();
    if (route.name === 'reports') useReports.getState().prefetch();
    void loadAccount();
  }, [loadAccount]);
  useEffect(() => {
    if (phase === 'signed-in') void refreshStatus();
  }, [phase, refreshStatus]);

  if (phase === 'loading') {
    return (
      <p className="loading" role="status">
        Loading…
      </p>
    );
  }
  if (phase === 'signed-out') return <FirstRun />;
  return (
    <Shell>
      <CurrentScreen />
    </Shell>
  );
}
