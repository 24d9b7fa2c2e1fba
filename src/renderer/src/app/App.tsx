import { useEffect } from 'react';
import { useSession } from '../stores/session';
import { useRouter } from '../stores/router';
import { useTheme } from './theme';
import { useBridgeEvents } from './useBridgeEvents';
import { Shell } from './Shell';
import { FirstRun } from '../screens/first-run/FirstRun';
import { ProgramsScreen } from '../screens/programs/ProgramsScreen';
import { ProgramScreen } from '../screens/programs/ProgramScreen';
import { ReportsScreen } from '../screens/reports/ReportsScreen';
import { AccountScreen } from '../screens/account/AccountScreen';
import { PayoutsScreen } from '../screens/payouts/PayoutsScreen';

function CurrentScreen() {
  const route = useRouter((s) => s.route);
  switch (route.name) {
    case 'programs':
      return <ProgramsScreen />;
    case 'program':
      return <ProgramScreen key={route.programId} programId={route.programId} />;
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

export function App() {
  useTheme();
  useBridgeEvents();
  const phase = useSession((s) => s.phase);
  const loadAccount = useSession((s) => s.loadAccount);
  const refreshStatus = useSession((s) => s.refreshStatus);
  useEffect(() => {
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
